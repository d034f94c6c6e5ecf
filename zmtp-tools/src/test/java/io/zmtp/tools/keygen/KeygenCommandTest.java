package io.zmtp.tools.keygen;

import io.zmtp.codec.security.CurveKeyPair;
import io.zmtp.tools.Zmtp;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

class KeygenCommandTest {

    @Test
    void shouldPrintAGeneratedPairWhosePublicKeyIsTheSecretKeys() {
        String out = run();
        String[] lines = out.split("\\R");
        assertThat(lines).hasSize(2);
        assertThat(lines[0]).startsWith("public ").hasSize(7 + 40);
        assertThat(lines[1]).startsWith("secret ").hasSize(7 + 40);
        CurveKeyPair pair = CurveKeyPair.fromSecretKeyZ85(lines[1].substring(7));
        assertThat(pair.publicKeyZ85()).isEqualTo(lines[0].substring(7));
    }

    @Test
    void shouldDeriveThePublicKeyOfAGivenSecretKey() {
        // The zmq_curve man page's server test pair.
        String out = run("--secret-key", "JTKVSB%%)wK0E.X)V>+}o?pNmC{O&4W4b!Ni{Lh6");
        assertThat(out).isEqualTo(String.format("public rq:rM>}U?@Lns47E1%%kR.o@n%%FcmmsL/@{H8]yf7%n"
                + "secret JTKVSB%%%%)wK0E.X)V>+}o?pNmC{O&4W4b!Ni{Lh6%n"));
    }

    @Test
    void shouldFailWithAMessageOnAMalformedSecretKey() {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        CommandLine cmd = new CommandLine(new Zmtp());
        cmd.setErr(new java.io.PrintWriter(err, true, StandardCharsets.UTF_8));
        int code = cmd.execute("keygen", "--secret-key", "short");
        assertThat(code).isNotZero();
    }

    private static String run(String... args) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        PrintStream old = System.out;
        System.setOut(new PrintStream(bytes, true, StandardCharsets.UTF_8));
        try {
            String[] all = new String[args.length + 1];
            all[0] = "keygen";
            System.arraycopy(args, 0, all, 1, args.length);
            assertThat(new CommandLine(new Zmtp()).execute(all)).isZero();
        } finally {
            System.setOut(old);
        }
        return bytes.toString(StandardCharsets.UTF_8);
    }
}
