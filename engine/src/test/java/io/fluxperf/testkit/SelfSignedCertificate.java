package io.fluxperf.testkit;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.Key;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A self-signed certificate for 127.0.0.1 and localhost, made by the JDK's own {@code keytool}
 * (no BouncyCastle: Netty's SelfSignedCertificate needs it, or JDK internals, on Java 17) and
 * written as PEM: the certificate (also the CA file a client trusts) and its PKCS#8 private key.
 *
 * @param certificate PEM certificate, usable as {@code --tls-cert} and as {@code --tls-ca}
 * @param privateKey  PEM PKCS#8 private key, usable as {@code --tls-key}
 */
public record SelfSignedCertificate(Path certificate, Path privateKey) {
    private static final char[] PASSWORD = "fluxperf-test".toCharArray();

    /** Makes {@code NAME.pem} and {@code NAME-key.pem} in {@code dir}; an EC P-256 key, valid for two days. */
    public static SelfSignedCertificate create(Path dir, String name) {
        Path store = dir.resolve(name + ".p12");
        String keytool = Path.of(System.getProperty("java.home"), "bin", "keytool").toString();
        List<String> command = List.of(keytool, "-genkeypair", "-alias", name, "-keyalg", "EC", "-groupname", "secp256r1",
                "-dname", "CN=localhost", "-ext", "san=ip:127.0.0.1,dns:localhost", "-validity", "2",
                "-keystore", store.toString(), "-storetype", "PKCS12",
                "-storepass", new String(PASSWORD), "-keypass", new String(PASSWORD));
        try {
            Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
            String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
                throw new IllegalStateException("keytool failed: " + output);
            }
            KeyStore ks = KeyStore.getInstance("PKCS12");
            try (InputStream in = Files.newInputStream(store)) {
                ks.load(in, PASSWORD);
            }
            Certificate cert = ks.getCertificate(name);
            Key key = ks.getKey(name, PASSWORD);
            Path certFile = dir.resolve(name + ".pem");
            Path keyFile = dir.resolve(name + "-key.pem");
            Files.writeString(certFile, pem("CERTIFICATE", cert.getEncoded()));
            Files.writeString(keyFile, pem("PRIVATE KEY", key.getEncoded())); // PKCS#8, as Java encodes private keys
            return new SelfSignedCertificate(certFile, keyFile);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static String pem(String type, byte[] der) {
        String body = Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII)).encodeToString(der);
        return "-----BEGIN " + type + "-----\n" + body + "\n-----END " + type + "-----\n";
    }
}
