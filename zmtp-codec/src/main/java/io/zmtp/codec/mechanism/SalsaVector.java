package io.zmtp.codec.mechanism;

import io.netty.util.internal.logging.InternalLogger;
import io.netty.util.internal.logging.InternalLoggerFactory;

import java.util.Optional;

/**
 * Whether {@link SalsaLanes} runs its rounds on the Vector API ({@link SalsaVectorCore}): only where the JVM was
 * started with {@code --add-modules jdk.incubator.vector} (an incubator module, which Java 17 to 25 resolve only when
 * asked), this code can read it, and the preferred vector holds at least 8 ints (AVX2, AVX-512, SVE of 256 bits and
 * more; narrower vectors were not measured). {@code -Dio.zmtp.curve.vector=false} turns it off. Otherwise the
 * rounds stay the auto-vectorized loops, which need no flag: the same bytes either way.
 *
 * <p>Decided once per JVM, at the first CURVE connection, and logged at INFO then, with the flag when it is missing:
 * the same arrangement as Lucene's use of the module. This class refers to nothing of the module itself, so it
 * loads anywhere; {@link SalsaVectorCore} is touched only after the module was found.
 */
final class SalsaVector {
    private static final InternalLogger logger = InternalLoggerFactory.getInstance(SalsaVector.class);

    static final String MODULE = "jdk.incubator.vector";
    static final String PROPERTY = "io.zmtp.curve.vector";

    /** Blocks per vector group, or 0 where the rounds stay the auto-vectorized loops. */
    static final int LANES = probe();

    private SalsaVector() {
    }

    private static int probe() {
        if (!Boolean.parseBoolean(System.getProperty(PROPERTY, "true"))) {
            logger.info("CURVE: Salsa20 on auto-vectorized loops (-D{}=false)", PROPERTY);
            return 0;
        }
        Optional<Module> module = ModuleLayer.boot().findModule(MODULE);
        if (module.isEmpty() || !SalsaVector.class.getModule().canRead(module.get())) {
            logger.info("CURVE: Salsa20 on auto-vectorized loops; start the JVM with --add-modules {} for a key "
                    + "stream about 2.5 times faster (large CURVE messages, see docs/security.md)", MODULE);
            return 0;
        }
        int lanes;
        try {
            lanes = SalsaVectorCore.LANES;
        } catch (LinkageError e) {
            logger.info("CURVE: Salsa20 on auto-vectorized loops; {} did not link: {}", MODULE, e.toString());
            return 0;
        }
        if (lanes < 8 || SalsaLanes.MAX_LANES % lanes != 0) {
            logger.info("CURVE: Salsa20 on auto-vectorized loops; the preferred vector holds {} ints", lanes);
            return 0;
        }
        logger.info("CURVE: Salsa20 on the Vector API, {} blocks per vector", lanes);
        return lanes;
    }
}
