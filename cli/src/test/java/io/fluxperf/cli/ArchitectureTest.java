package io.fluxperf.cli;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.properties.HasName;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import io.fluxperf.engine.protocol.Protocol;
import io.fluxperf.engine.protocol.Protocols;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noMethods;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The layering that ARCHITECTURE.md describes, over the main classes of every module (cli sees
 * them all): modules by their root package (trace-format {@code io.fluxperf.trace}, engine
 * {@code io.fluxperf.engine}, replay {@code io.fluxperf.replay}, cli {@code io.fluxperf.cli});
 * a protocol is a package {@code io.fluxperf.engine.protocol.NAME} with its sub-packages.
 */
class ArchitectureTest {
    private static final String PROTOCOLS = "io.fluxperf.engine.protocol.*..";
    private static JavaClasses main;

    @BeforeAll
    static void importMainClasses() {
        // test classes come from test-classes directories, or from the engine's test jar
        ImportOption mainOnly = location -> !location.contains("/test-classes/") && !location.contains("-tests.jar");
        main = new ClassFileImporter().withImportOption(mainOnly).importPackages("io.fluxperf");
        assertTrue(main.contain("io.fluxperf.trace.TraceWriter") && main.contain("io.fluxperf.replay.Replay")
                && !main.contain("io.fluxperf.testkit.FaultProxyMain"), "every module's main classes, and only those");
    }

    @Test
    void traceFormatDependsOnNothingOfOurs() {
        noClasses().that().resideInAPackage("io.fluxperf.trace..")
                .should().dependOnClassesThat().resideInAnyPackage("io.fluxperf.engine..", "io.fluxperf.replay..",
                        "io.fluxperf.cli..", "io.fluxperf.bench..")
                .check(main);
    }

    @Test
    void onlyProtocolPackagesNameAProtocol() {
        noClasses().that().resideOutsideOfPackage(PROTOCOLS)
                .should().dependOnClassesThat().resideInAPackage(PROTOCOLS)
                .because("the engine, replay and the commands know protocols only through the Protocol interface"
                        + " and the registry")
                .check(main);
    }

    @Test
    void protocolPackagesDoNotImportEachOther() {
        slices().matching("io.fluxperf.engine.protocol.(*)..").should().notDependOnEachOther().check(main);
    }

    @Test
    void engineDoesNotReachUpIntoReplayOrTheCommands() {
        noClasses().that().resideInAPackage("io.fluxperf.engine..")
                .should().dependOnClassesThat().resideInAnyPackage("io.fluxperf.replay..", "io.fluxperf.cli..")
                .check(main);
        noClasses().that().resideInAPackage("io.fluxperf.replay..")
                .should().dependOnClassesThat().resideInAPackage("io.fluxperf.cli..")
                .check(main);
    }

    @Test
    void hostWorkaroundsSitBehindOnePolicy() {
        DescribedPredicate<JavaClass> primitives = JavaClass.Predicates.resideInAPackage("io.fluxperf.engine.host..")
                .and(DescribedPredicate.not(HasName.Predicates.nameMatching(
                        "io\\.fluxperf\\.engine\\.host\\.HostTuning(\\$.*)?")));
        noClasses().that().resideOutsideOfPackages("io.fluxperf.engine.host..", "io.fluxperf.engine.target..")
                .should().dependOnClassesThat(primitives)
                .because("JIT rehearsals, priorities, timer slack and CPU courtesy are applied through HostTuning"
                        + " (the embedded targets minimize their own loops' timer slack)")
                .check(main);
        noClasses().that().resideInAnyPackage("io.fluxperf.engine.metrics..", "io.fluxperf.engine.report..")
                .should().dependOnClassesThat().resideInAPackage("io.fluxperf.engine.host..")
                .because("figures and reports know nothing of the host's workarounds")
                .check(main);
    }

    @Test
    void cliIsTheOnlyModuleWithAMain() {
        noMethods().that().haveName("main").and().areStatic().and().haveRawParameterTypes(String[].class)
                .should().beDeclaredInClassesThat().resideOutsideOfPackage("io.fluxperf.cli..")
                .check(main);
        classes().that().haveSimpleName("Main").should().resideInAPackage("io.fluxperf.cli").check(main);
    }

    @Test
    void everyProtocolIsRegisteredOnceAndOwnsItsPackage() {
        assertEquals(Protocols.all().size(), Protocols.all().stream().map(Protocol::name).distinct().count());
        for (Protocol p : Protocols.all()) {
            assertTrue(p.getClass().getPackageName().startsWith("io.fluxperf.engine.protocol."),
                    p.name() + " lives in a protocol package of its own, not in " + p.getClass().getPackageName());
        }
    }
}
