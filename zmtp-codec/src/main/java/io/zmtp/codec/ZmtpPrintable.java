package io.zmtp.codec;

import java.nio.charset.StandardCharsets;

/**
 * Renders binary values (identities, topics, reasons) safely for logs: printable ASCII as is, the rest as hex.
 */
final class ZmtpPrintable {
    private ZmtpPrintable() {
    }

    static String of(byte[] bytes) {
        boolean printable = true;
        for (byte b : bytes) {
            if (b < 0x20 || b > 0x7E) {
                printable = false;
                break;
            }
        }
        if (printable) {
            return '"' + new String(bytes, StandardCharsets.US_ASCII) + '"';
        }
        StringBuilder sb = new StringBuilder("0x");
        for (byte b : bytes) {
            sb.append(Character.forDigit((b >> 4) & 0xF, 16)).append(Character.forDigit(b & 0xF, 16));
        }
        return sb.toString();
    }
}
