package io.zmtp.codec.mechanism;

import io.netty.util.internal.logging.InternalLogger;
import io.netty.util.internal.logging.InternalLoggerFactory;

import java.util.Optional;

/**
 * Whether CURVE's Salsa20 and Poly1305 run on the Vector API ({@link SalsaVectorCore}, {@link Poly1305VectorCore}):
 * only where the JVM was started with {@code --add-modules jdk.incubator.vector} (an incubator module, which Java 17
 * to 25 resolve only when asked), this code can read it, and the preferred vector is wide enough: at least 8 ints
 * for Salsa20 and 4 doubles for Poly1305 (measured with AVX-512, 16 and 8; AVX2's 8 and 4 are taken but were not
 * measured, narrower vectors are not taken). {@code -Dio.zmtp.curve.vector=false} turns it off. They serve boxes
 * from 4 KiB ({@link SalsaLanes#VECTOR_MIN_BLOCKS}); below that, and otherwise, the key stream comes from the
 * auto-vectorized loops and the MAC from the scalar {@link Poly1305Mac}, which need no flag: the same bytes either
 * way. {@link VectorWatch} turns a core off if the JIT compiled it wrong.
 *
 * <p>Decided once per JVM, at the first CURVE connection, and logged at INFO then, with the flag when it is missing
 * (as Lucene does for the same module). This class refers to nothing of the module itself, so it loads anywhere;
 * the cores are touched only after the module was found, and nothing else links them.
 */
final class CurveVectors {
    private static final InternalLogger logger = InternalLoggerFactory.getInstance(CurveVectors.class);

    static final String MODULE = "jdk.incubator.vector";
    static final String PROPERTY = "io.zmtp.curve.vector";

    /** Salsa20 blocks per {@link SalsaVectorCore} group, or 0 where the key stream stays the auto-vectorized loops. */
    static final int SALSA_LANES;
    /** Poly1305 blocks per {@link Poly1305VectorCore} step, or 0 where the MAC stays scalar. */
    static final int MAC_LANES;

    static {
        int[] lanes = probe();
        SALSA_LANES = lanes[0];
        MAC_LANES = lanes[1];
    }

    private CurveVectors() {
    }

    private static int[] probe() {
        int[] none = {0, 0};
        if (!Boolean.parseBoolean(System.getProperty(PROPERTY, "true"))) {
            logger.info("CURVE: Salsa20 and Poly1305 without the Vector API (-D{}=false)", PROPERTY);
            return none;
        }
        Optional<Module> module = ModuleLayer.boot().findModule(MODULE);
        if (module.isEmpty() || !CurveVectors.class.getModule().canRead(module.get())) {
            logger.info("CURVE: Salsa20 and Poly1305 without the Vector API; start the JVM with --add-modules {} "
                    + "for faster boxes from 4 KiB (see docs/security.md)", MODULE);
            return none;
        }
        int salsa;
        int mac;
        try {
            salsa = SalsaVectorCore.LANES;
            mac = Poly1305VectorCore.LANES;
        } catch (LinkageError e) {
            logger.info("CURVE: Salsa20 and Poly1305 without the Vector API; {} did not link: {}", MODULE,
                    e.toString());
            return none;
        }
        if (salsa < 8 || SalsaLanes.MAX_LANES % salsa != 0) {
            salsa = 0;
        }
        if (mac < 4 || Poly1305Lanes.BUFFERED % mac != 0) {
            mac = 0;
        }
        logger.info("CURVE: Salsa20 {}, Poly1305 {}",
                salsa > 0 ? "on the Vector API, " + salsa + " blocks per vector" : "on auto-vectorized loops",
                mac > 0 ? "on the Vector API, " + mac + " blocks per vector" : "scalar");
        return new int[] {salsa, mac};
    }
}
