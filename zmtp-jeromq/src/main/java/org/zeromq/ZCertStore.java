package org.zeromq;

import io.netty.util.internal.logging.InternalLogger;
import io.netty.util.internal.logging.InternalLoggerFactory;
import io.zmtp.codec.security.CurveKeyPair;
import io.zmtp.codec.security.Z85;
import org.zeromq.util.ZDigest;
import org.zeromq.util.ZMetadata;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * The public keys a CURVE server accepts, read from a directory of certificates, as JeroMQ 0.6.0's
 * {@code ZCertStore} (CZMQ's {@code zcertstore}). Every file below the directory (sub-directories included) that is
 * a certificate ({@link ZCert}'s format: {@code curve/public-key} in ZPL) adds its public key and its metadata;
 * secret certificates count by their public key.
 *
 * <p>Each query first checks whether the directory changed, through a {@link Fingerprinter} of every file and
 * directory read: {@link Timestamper} (the default) compares modification times, {@link Hasher} compares SHA-1
 * digests of contents (of the sorted names, for a directory). When something was added, removed or changed, the
 * whole directory is read again.
 *
 * <p>A file that is not a certificate (no public key, not ZPL, a key that is not 40 Z85 characters) is skipped and
 * logged, and remembered by its fingerprint so that it is not read again until it changes; JeroMQ throws out of the
 * query on a file that is not ZPL, and reads the directory again on every query while a file has no public key.
 * Directories reached twice through links are read once.
 *
 * <p>Not thread-safe.
 */
public class ZCertStore {
    private static final InternalLogger logger = InternalLoggerFactory.getInstance(ZCertStore.class);

    /** Computes what tells whether a file or directory changed since it was last read. */
    public interface Fingerprinter {
        /**
         * The fingerprint of {@code path}, a file or a directory.
         *
         * @return the fingerprint; null when it cannot be computed (compared as "changed")
         */
        byte[] print(File path);
    }

    /** Fingerprints by last modification time (8 bytes, big-endian milliseconds). Cheap; the default. */
    public static final class Timestamper implements Fingerprinter {
        @Override
        public byte[] print(File path) {
            long modified = path.lastModified();
            byte[] print = new byte[8];
            for (int i = 0; i < 8; i++) {
                print[i] = (byte) (modified >>> (56 - 8 * i));
            }
            return print;
        }
    }

    /**
     * Fingerprints by SHA-1 digest: of a file's contents, of a directory's sorted names. Sees changes that keep the
     * modification time; reads every file on every query.
     */
    public static final class Hasher implements Fingerprinter {
        /** Reused across files: a Hasher belongs to one store. */
        private final byte[] buffer = new byte[8192];

        @Override
        public byte[] print(File path) {
            try {
                if (path.isFile()) {
                    try (InputStream input = Files.newInputStream(path.toPath())) {
                        return new ZDigest(buffer).update(input).data();
                    }
                }
                String[] names = path.list();
                if (names == null) {
                    return null;
                }
                Arrays.sort(names);
                return new ZDigest(buffer).update(Arrays.toString(names).getBytes(StandardCharsets.UTF_8)).data();
            } catch (IOException e) {
                return null;
            }
        }
    }

    private final File location;
    private final Fingerprinter fingerprinter;
    /** Every file and directory read, with its fingerprint when it was read. */
    private final Map<File, byte[]> fingerprints = new HashMap<>();
    /** Public key in Z85 to its certificate's metadata. */
    private final Map<String, ZMetadata> publicKeys = new HashMap<>();

    /**
     * A store of the certificates below {@code location}, fingerprinted by modification time; the directory is
     * created if it does not exist.
     *
     * @param location the directory
     */
    public ZCertStore(String location) {
        this(location, new Timestamper());
    }

    /**
     * A store of the certificates below {@code location}; the directory is created if it does not exist.
     *
     * @param location      the directory
     * @param fingerprinter how to tell that a file or directory changed
     */
    public ZCertStore(String location, Fingerprinter fingerprinter) {
        this.location = new File(location);
        this.fingerprinter = fingerprinter;
        load();
    }

    /**
     * Whether a certificate with this public key is in the store, after reading the directory again if it changed.
     *
     * @param publicKey the key, 32 bytes
     * @throws IllegalArgumentException if it is not 32 bytes
     */
    public boolean containsPublicKey(byte[] publicKey) {
        if (publicKey.length != CurveKeyPair.KEY_LENGTH) {
            throw new IllegalArgumentException("public key length: " + publicKey.length + " (expected: "
                    + CurveKeyPair.KEY_LENGTH + ")");
        }
        return containsPublicKey(Z85.encode(publicKey));
    }

    /**
     * Whether a certificate with this public key is in the store, after reading the directory again if it changed.
     *
     * @param publicKey the key in Z85, 40 characters
     * @throws IllegalArgumentException if it is not 40 characters
     */
    public boolean containsPublicKey(String publicKey) {
        if (publicKey.length() != CurveKeyPair.Z85_KEY_LENGTH) {
            throw new IllegalArgumentException("Z85 public key length: " + publicKey.length() + " (expected: "
                    + CurveKeyPair.Z85_KEY_LENGTH + ")");
        }
        reloadIfNecessary();
        return publicKeys.containsKey(publicKey);
    }

    /**
     * The metadata of the certificate with this public key, after reading the directory again if it changed.
     *
     * @param publicKey the key in Z85
     * @return its metadata, or null if there is no such certificate or it has no metadata section
     */
    public ZMetadata getMetadata(String publicKey) {
        reloadIfNecessary();
        return publicKeys.get(publicKey);
    }

    /** The number of distinct public keys, after reading the directory again if it changed. */
    int getCertificatesCount() {
        reloadIfNecessary();
        return publicKeys.size();
    }

    /** Reads the directory again if it changed; true if it did. */
    boolean reloadIfNecessary() {
        if (checkForChanges()) {
            load();
            return true;
        }
        return false;
    }

    /** Whether a file or directory was added, removed or changed since the directory was last read. */
    boolean checkForChanges() {
        if (!location.isDirectory()) {
            return !fingerprints.isEmpty();
        }
        Map<File, byte[]> unseen = new HashMap<>(fingerprints);
        boolean[] changed = {false};
        walk(location, new HashSet<>(), path -> {
            boolean known = unseen.containsKey(path);
            byte[] before = unseen.remove(path);
            if (!known || before == null || !Arrays.equals(before, fingerprinter.print(path))) {
                changed[0] = true;
            }
            return !changed[0];
        });
        return changed[0] || !unseen.isEmpty();
    }

    private void load() {
        if (!location.exists() && !location.mkdirs()) {
            logger.warn("certificate store {}: cannot create the directory", location);
        }
        Map<String, ZMetadata> keys = new HashMap<>();
        Map<File, byte[]> prints = new HashMap<>();
        walk(location, new HashSet<>(), path -> {
            prints.put(path, fingerprinter.print(path));
            if (path.isFile()) {
                readCertificate(path, keys);
            }
            return true;
        });
        publicKeys.clear();
        publicKeys.putAll(keys);
        fingerprints.clear();
        fingerprints.putAll(prints);
    }

    private static void readCertificate(File file, Map<String, ZMetadata> keys) {
        ZConfig config;
        try {
            config = ZConfig.load(file.getPath());
        } catch (IOException | ZConfig.ReadException e) {
            logger.warn("certificate store: skipping {}, not a ZPL file: {}", file, e.getMessage());
            return;
        }
        String publicKey = config.getValue("curve/public-key");
        if (publicKey == null) {
            logger.warn("certificate store: skipping {}, no curve/public-key", file);
            return;
        }
        if (publicKey.length() == CurveKeyPair.KEY_LENGTH) {
            // JeroMQ takes a 32-character key as the key's raw bytes.
            publicKey = Z85.encode(publicKey.getBytes(StandardCharsets.UTF_8));
        }
        try {
            CurveKeyPair.decodeKey(publicKey, "public key");
        } catch (IllegalArgumentException e) {
            logger.warn("certificate store: skipping {}: {}", file, e.getMessage());
            return;
        }
        keys.put(publicKey, ZMetadata.read(config));
    }

    private interface Visitor {
        /** Visits a file or directory; false stops the walk. */
        boolean visit(File path);
    }

    /**
     * Visits {@code dir}, then its files and sub-directories, depth first; a directory already visited (through a
     * link) is not entered again. Returns false if the visitor stopped the walk.
     */
    private static boolean walk(File dir, Set<File> visited, Visitor visitor) {
        File canonical;
        try {
            canonical = dir.getCanonicalFile();
        } catch (IOException e) {
            canonical = dir.getAbsoluteFile();
        }
        if (!visited.add(canonical)) {
            return true;
        }
        if (!visitor.visit(dir)) {
            return false;
        }
        File[] entries = dir.listFiles();
        if (entries == null) {
            return true;
        }
        Arrays.sort(entries);
        for (File entry : entries) {
            if (entry.isDirectory()) {
                if (!walk(entry, visited, visitor)) {
                    return false;
                }
            } else if (entry.isFile() && !visitor.visit(entry)) {
                return false;
            }
        }
        return true;
    }
}
