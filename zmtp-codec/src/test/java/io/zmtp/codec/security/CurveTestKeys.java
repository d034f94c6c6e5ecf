package io.zmtp.codec.security;

import io.zmtp.testkit.ZmtpVectors;

import java.util.HexFormat;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The reference values of the testkit's {@code curve_test_keys.txt} (rfc 32's Z85 cases, the zmq_curve man page's
 * test key pairs, values derived with libsodium), read from the file so the tests check what it says.
 */
public final class CurveTestKeys {
    private static final String TEXT = ZmtpVectors.text("curve_test_keys");

    public static final String CLIENT_PUBLIC_Z85 = z85("client public");
    public static final String CLIENT_SECRET_Z85 = z85("client secret");
    public static final String SERVER_PUBLIC_Z85 = z85("server public");
    public static final String SERVER_SECRET_Z85 = z85("server secret");
    public static final byte[] CLIENT_PUBLIC = hexAfter("client public");
    public static final byte[] CLIENT_SECRET = hexAfter("client secret");
    public static final byte[] SERVER_PUBLIC = hexAfter("server public");
    public static final byte[] SERVER_SECRET = hexAfter("server secret");

    private CurveTestKeys() {
    }

    private static String z85(String label) {
        Matcher m = Pattern.compile(Pattern.quote(label) + "\\s+Z85 \"([^\"]{40})\"").matcher(TEXT);
        if (!m.find()) {
            throw new IllegalStateException("curve_test_keys.txt has no Z85 " + label);
        }
        return m.group(1);
    }

    private static byte[] hexAfter(String label) {
        Matcher m = Pattern.compile(Pattern.quote(label) + "\\s+Z85 \"[^\"]{40}\"\\s+hex ([0-9a-f]{64})")
                .matcher(TEXT);
        if (!m.find()) {
            throw new IllegalStateException("curve_test_keys.txt has no hex " + label);
        }
        return HexFormat.of().parseHex(m.group(1));
    }

    /** The hex value on the lines after {@code label} (values wrapped over several lines are joined). */
    public static byte[] derived(String label, int bytes) {
        int at = TEXT.indexOf(label);
        if (at < 0) {
            throw new IllegalStateException("curve_test_keys.txt has no " + label);
        }
        Matcher m = Pattern.compile("[0-9a-f]{16,}").matcher(TEXT);
        StringBuilder hex = new StringBuilder();
        int from = at + label.length();
        while (hex.length() < bytes * 2 && m.find(from)) {
            hex.append(m.group());
            from = m.end();
        }
        return HexFormat.of().parseHex(hex.substring(0, bytes * 2));
    }

    /** The Z85 text for a byte sequence given as hex in the Z85 section ("bytes 86 4f ... -> "HelloWorld""). */
    public static String text() {
        return TEXT;
    }
}
