# fluxperf's image: the Maven build, then a JRE 17 image that runs the shaded jar as a non-root
# user. Build: docker build -t REGISTRY/fluxperf:TAG . ; run: docker run --rm REGISTRY/fluxperf:TAG run --help
# On Kubernetes, 'fluxperf k8s' prints the manifests that run it as an Indexed Job (docs/scale-out.md).

FROM maven:3.9-eclipse-temurin-17 AS build
WORKDIR /src
# the poms first: the dependencies are a layer of their own, downloaded again only when a pom changes
COPY pom.xml ./
COPY trace-format/pom.xml trace-format/
COPY engine/pom.xml engine/
COPY replay/pom.xml replay/
COPY cli/pom.xml cli/
COPY samples/pom.xml samples/
COPY bench/jmh/pom.xml bench/jmh/
RUN mvn -B -q -pl cli -am dependency:go-offline -DexcludeReactor=true || true
COPY . .
RUN mvn -B -q -pl cli -am -DskipTests package && cp cli/target/fluxperf.jar /fluxperf.jar

FROM eclipse-temurin:17-jre
RUN groupadd --system --gid 10001 fluxperf \
    && useradd --system --uid 10001 --gid 10001 --home-dir /tmp --no-create-home --shell /usr/sbin/nologin fluxperf \
    && mkdir -p /results && chown 10001:10001 /results
COPY --from=build /fluxperf.jar /opt/fluxperf/fluxperf.jar
COPY docker/entrypoint.sh /opt/fluxperf/entrypoint.sh
USER 10001:10001
WORKDIR /tmp
ENV FLUXPERF_RESULTS=/results
ENTRYPOINT ["/opt/fluxperf/entrypoint.sh"]
CMD ["--help"]
