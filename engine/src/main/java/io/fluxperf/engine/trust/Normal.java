package io.fluxperf.engine.trust;

/** The standard normal distribution and Student's t, as far as the trust tests need them. */
final class Normal {
    private Normal() {
    }

    /** P(Z <= z), through {@link #erfc}. */
    static double cdf(double z) {
        return 0.5 * erfc(-z / Math.sqrt(2));
    }

    /** The complementary error function (Numerical Recipes' Chebyshev fit, relative error below 1.2e-7). */
    static double erfc(double x) {
        double z = Math.abs(x);
        double t = 1 / (1 + 0.5 * z);
        double r = t * Math.exp(-z * z - 1.26551223 + t * (1.00002368 + t * (0.37409196 + t * (0.09678418
                + t * (-0.18628806 + t * (0.27886807 + t * (-1.13520398 + t * (1.48851587
                + t * (-0.82215223 + t * 0.17087277)))))))));
        return x >= 0 ? r : 2 - r;
    }

    /** Student's t at 97.5 % for {@code df} degrees of freedom: the half-width factor of a 95 % interval. */
    static double t975(int df) {
        if (df < 1) {
            return Double.POSITIVE_INFINITY;
        }
        if (df <= T975.length) {
            return T975[df - 1];
        }
        // Cornish-Fisher expansion around the normal quantile; within 0.001 of the table's values beyond 30
        double z = 1.959963984540054;
        return z + (z * z * z + z) / (4 * df) + (5 * Math.pow(z, 5) + 16 * z * z * z + 3 * z) / (96.0 * df * df);
    }

    private static final double[] T975 = {12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
        2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060,
        2.056, 2.052, 2.048, 2.045, 2.042};
}
