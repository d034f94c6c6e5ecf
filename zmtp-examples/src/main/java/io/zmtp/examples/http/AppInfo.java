package io.zmtp.examples.http;

import java.nio.charset.StandardCharsets;

/** The JSON {@code GET /} answers, the same bytes from the example and from the plain Netty reference server. */
final class AppInfo {
    static final String DEFAULT_NAME = "netty-zmtp-http-example";

    private AppInfo() {
    }

    static byte[] json(String applicationName) {
        return ("{\"applicationName\":\"" + escape(applicationName) + "\",\"applicationVersion\":\"1.0\"}")
                .getBytes(StandardCharsets.UTF_8);
    }

    static String escape(String s) {
        StringBuilder sb = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '"' || c == '\\') {
                sb.append('\\').append(c);
            } else if (c < 0x20) {
                sb.append(String.format("\\u%04x", (int) c));
            } else {
                sb.append(c);
            }
        }
        return sb.toString();
    }
}
