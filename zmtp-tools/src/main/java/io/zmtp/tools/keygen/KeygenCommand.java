package io.zmtp.tools.keygen;

import io.zmtp.codec.security.CurveKeyPair;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.PrintStream;
import java.util.concurrent.Callable;

/**
 * {@code zmtp keygen}: a new CURVE key pair in Z85, as libzmq's {@code curve_keygen} makes one, or the public key of
 * a secret key one already has. The keys work with libzmq, pyzmq, CZMQ and JeroMQ as they are.
 */
@Command(name = "keygen", mixinStandardHelpOptions = true,
        description = {"Generate a CURVE key pair, printed as two Z85 lines (public first, then secret).",
                "With --secret-key, print the public key of an existing secret key instead."})
public final class KeygenCommand implements Callable<Integer> {

    @Option(names = "--secret-key", paramLabel = "<z85>",
            description = "Derive the pair of this secret key (40 Z85 characters) instead of generating one.")
    String secretKey;

    @Override
    public Integer call() {
        CurveKeyPair pair = secretKey == null ? CurveKeyPair.generate() : CurveKeyPair.fromSecretKeyZ85(secretKey);
        print(System.out, pair);
        return 0;
    }

    /** The two lines: easy to cut in a shell ({@code zmtp keygen | awk '/^public/ {print $2}'}). */
    static void print(PrintStream out, CurveKeyPair pair) {
        out.println("public " + pair.publicKeyZ85());
        out.println("secret " + pair.secretKeyZ85());
    }
}
