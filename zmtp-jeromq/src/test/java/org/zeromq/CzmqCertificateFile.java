package org.zeromq;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads a certificate file by CZMQ's rules, independently of {@link ZConfig}: what {@code zcert_load} needs from
 * {@code zconfig_load}. Lines are comments ({@code #} first), blank, a section name at column 0, or
 * {@code name = "value"} indented by exactly four spaces under a section. Anything else fails, so a file that passes
 * is one CZMQ reads the same way.
 */
final class CzmqCertificateFile {
    /** "section/name" to value, in file order; sections without properties appear as "section" to null. */
    final Map<String, String> values = new LinkedHashMap<>();

    CzmqCertificateFile(List<String> lines) {
        String section = null;
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            if (!line.startsWith(" ")) {
                section = line;
                requireName(section, i);
                values.put(section, null);
                continue;
            }
            if (section == null || !line.startsWith("    ") || line.charAt(4) == ' ') {
                throw new IllegalArgumentException("line " + (i + 1) + " is not under a section: " + line);
            }
            int equals = line.indexOf(" = \"");
            if (equals < 0 || !line.endsWith("\"")) {
                throw new IllegalArgumentException("line " + (i + 1) + " is not name = \"value\": " + line);
            }
            String name = line.substring(4, equals);
            requireName(name, i);
            values.remove(section);
            values.put(section + "/" + name, line.substring(equals + 4, line.length() - 1));
        }
    }

    private static void requireName(String name, int index) {
        if (!name.matches("[0-9a-zA-Z$\\-_@.&+/]+")) {
            throw new IllegalArgumentException("line " + (index + 1) + ": not a ZPL name: " + name);
        }
    }
}
