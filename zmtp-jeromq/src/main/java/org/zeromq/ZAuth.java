package org.zeromq;

import io.netty.buffer.Unpooled;
import io.zmtp.codec.ZmtpCodecException;
import io.zmtp.codec.ZmtpMetadata;
import org.zeromq.util.ZMetadata;

import java.io.Closeable;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.security.MessageDigest;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;
import java.util.UUID;

/**
 * The ZAP handler of a context (rfc 27), as JeroMQ 0.6.0's {@code ZAuth}: an actor bound at
 * {@code inproc://zeromq.zap.01} that every security handshake of the context's sockets asks (NULL only on sockets
 * with a ZAP domain, as libzmq), allowing or denying peers by IP address, PLAIN users by a password file and CURVE
 * clients by a certificate directory ({@link ZCertStore}) or all of them.
 *
 * <h2>Who a peer is</h2>
 * The User-Id in a reply is what this handler established: the PLAIN user name once its password matched, the CURVE
 * client's key once the store holds it (with the certificate's metadata), never a value the client sent about itself.
 * The server socket reports it for the connection ({@code zmtpSocket().peers()}'s {@code userId()}).
 *
 * <h2>Commands</h2>
 * Each configuration call is a command on the actor's pipe, answered before the call returns, so it applies to every
 * handshake that starts afterwards. {@link #replies(boolean)} copies each reply, with the peer's address and
 * identity, to a channel read by {@link #nextReply()}. {@link #close()} stops the actor and waits for its thread.
 *
 * <p>Different from JeroMQ: a second ZAuth in a context (the endpoint taken) throws {@link ZMQException} with
 * EADDRINUSE instead of running without being asked; a request with an unknown mechanism is refused (400) instead
 * of ending the actor; GSSAPI does not exist (JeroMQ has none either).
 */
public class ZAuth implements Closeable {
    /** Decides for one mechanism. */
    public interface Auth {
        /**
         * Takes a configuration command's arguments.
         *
         * @param msg     the arguments (the command word removed)
         * @param verbose whether to trace
         * @return whether the configuration is usable
         */
        boolean configure(ZMsg msg, boolean verbose);

        /**
         * Decides on a request; may set its {@code userId} and {@code metadata} when it allows it.
         *
         * @return whether the peer may connect
         */
        boolean authorize(ZapRequest request, boolean verbose);
    }

    /**
     * PLAIN with a password file of {@code user=password} lines (java.util.Properties' format), read again when the
     * file changes. The domain given with the file is not checked (as JeroMQ): the file covers every domain.
     */
    public static class SimplePlainAuth implements Auth {
        private final Properties passwords = new Properties();
        private File passwordsFile;
        private long loadedModified = Long.MIN_VALUE;

        @Override
        public boolean configure(ZMsg msg, boolean verbose) {
            if (msg.size() < 2) {
                return false;
            }
            msg.popString(); // the domain: every domain, as JeroMQ
            passwordsFile = new File(msg.popString());
            trace(verbose, "ZAuth: activated plain-mechanism with password-file: %s", passwordsFile.getAbsolutePath());
            loadPasswords();
            return true;
        }

        @Override
        public boolean authorize(ZapRequest request, boolean verbose) {
            if (passwordsFile == null || request.username == null || request.password == null) {
                return false;
            }
            loadPasswords();
            String password = passwords.getProperty(request.username);
            boolean allowed = password != null && MessageDigest.isEqual(
                    password.getBytes(StandardCharsets.UTF_8), request.password.getBytes(StandardCharsets.UTF_8));
            if (allowed) {
                request.userId = request.username;
            }
            trace(verbose, "ZAuth: %s (PLAIN) username=%s", allowed ? "Allowed" : "Denied", request.username);
            return allowed;
        }

        /** Reads the file if it changed since it was last read; a file that can't be read leaves no user. */
        private void loadPasswords() {
            long modified = passwordsFile.lastModified();
            if (modified == loadedModified) {
                return;
            }
            loadedModified = modified;
            passwords.clear();
            try (InputStream in = Files.newInputStream(passwordsFile.toPath())) {
                passwords.load(new java.io.InputStreamReader(in, StandardCharsets.UTF_8));
            } catch (IOException | IllegalArgumentException e) {
                passwords.clear();
            }
        }
    }

    /** CURVE: the clients whose keys are in a certificate directory, or any client ({@link #CURVE_ALLOW_ANY}). */
    public static class SimpleCurveAuth implements Auth {
        private final ZCertStore.Fingerprinter fingerprinter;
        private ZCertStore certStore;
        private boolean allowAny;

        /** Notices changes of the directory by a hash of its files' names, sizes and dates. */
        public SimpleCurveAuth() {
            this(new ZCertStore.Hasher());
        }

        /** Notices changes of the directory with {@code fingerprinter}. */
        public SimpleCurveAuth(ZCertStore.Fingerprinter fingerprinter) {
            this.fingerprinter = fingerprinter;
        }

        @Override
        public boolean configure(ZMsg configuration, boolean verbose) {
            String location = configuration.popString();
            if (location == null) {
                return false;
            }
            allowAny = CURVE_ALLOW_ANY.equals(location);
            if (allowAny) {
                certStore = null;
                trace(verbose, "ZAuth: Allowing all clients");
            } else {
                certStore = new ZCertStore(location, fingerprinter);
                trace(verbose, "ZAuth: Using %s as certificates directory", location);
            }
            return true;
        }

        @Override
        public boolean authorize(ZapRequest request, boolean verbose) {
            if (allowAny) {
                trace(verbose, "ZAuth: allowed (CURVE allow any client)");
                return true;
            }
            if (certStore == null || request.clientKey == null) {
                return false;
            }
            boolean allowed = certStore.containsPublicKey(request.clientKey);
            if (allowed) {
                request.userId = request.clientKey;
                request.metadata = certStore.getMetadata(request.clientKey);
            }
            trace(verbose, "ZAuth: %s (CURVE) client_key=%s", allowed ? "Allowed" : "Denied", request.clientKey);
            return allowed;
        }
    }

    /** NULL: allows every peer the address lists let through. */
    public static class SimpleNullAuth implements Auth {
        @Override
        public boolean configure(ZMsg configuration, boolean verbose) {
            return true;
        }

        @Override
        public boolean authorize(ZapRequest request, boolean verbose) {
            return true;
        }
    }

    static final String ZAP_VERSION = "1.0";

    /** A reply the handler sent, as {@link #nextReply()} gives it. */
    public static class ZapReply {
        /** "1.0". */
        public final String version;
        /** The request's id. */
        public final String sequence;
        /** 200 allowed, 300 temporary error, 400 denied, 500 internal error. */
        public final int statusCode;
        public final String statusText;
        /** The User-Id the handler established, "" if none. */
        public final String userId;
        /** The metadata the handler added, or null. */
        public final ZMetadata metadata;
        /** The peer's IP address (not part of the ZAP reply). */
        public final String address;
        /** The server socket's identity (not part of the ZAP reply). */
        public final String identity;

        ZapReply(String version, String sequence, int statusCode, String statusText, String userId,
                ZMetadata metadata, String address, String identity) {
            this.version = version;
            this.sequence = sequence;
            this.statusCode = statusCode;
            this.statusText = statusText;
            this.userId = userId;
            this.metadata = metadata;
            this.address = address;
            this.identity = identity;
        }

        /** The six frames of a ZAP reply. */
        ZMsg msg() {
            ZMsg msg = new ZMsg();
            msg.add(version);
            msg.add(sequence);
            msg.add(Integer.toString(statusCode));
            msg.add(statusText);
            msg.add(userId == null ? "" : userId);
            msg.add(metadata == null ? new byte[0] : wireMetadata(metadata).bytes());
            return msg;
        }

        /**
         * The properties a ZAP reply can carry: those whose names are ZMTP metadata names (rfc 23: letters, digits
         * and {@code -_.+}, at most 255). A certificate's nested metadata ({@code meta1/meta2 = ...}, which JeroMQ's
         * own tests write) would make the server's handshake refuse the whole reply, and the peer with it; it is left
         * out instead.
         */
        private static ZMetadata wireMetadata(ZMetadata metadata) {
            ZMetadata carried = new ZMetadata();
            for (Map.Entry<String, String> property : metadata.entrySet()) {
                if (isMetadataName(property.getKey())) {
                    carried.set(property.getKey(), property.getValue());
                }
            }
            return carried;
        }

        private static boolean isMetadataName(String name) {
            if (name.isEmpty() || name.length() > 255) {
                return false;
            }
            for (int i = 0; i < name.length(); i++) {
                char c = name.charAt(i);
                boolean ok = c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-'
                        || c == '_' || c == '.' || c == '+';
                if (!ok) {
                    return false;
                }
            }
            return true;
        }

        @Override
        public String toString() {
            return "ZapReply [version=" + version + ", sequence=" + sequence + ", statusCode=" + statusCode
                    + ", statusText=" + statusText + ", userId=" + userId
                    + (metadata != null ? ", metadata=" + metadata : "") + "]";
        }

        /** A reply from the replies channel: the six frames, the address and the identity; null for none. */
        static ZapReply received(ZMsg msg) {
            if (msg == null || msg.size() != 8) {
                return null;
            }
            String version = msg.popString();
            String sequence = msg.popString();
            int statusCode = Integer.parseInt(msg.popString());
            String statusText = msg.popString();
            String userId = msg.popString();
            ZMetadata metadata = metadata(msg.pop().getData());
            return new ZapReply(version, sequence, statusCode, statusText, userId, metadata, msg.popString(),
                    msg.popString());
        }

        private static ZMetadata metadata(byte[] encoded) {
            if (encoded == null || encoded.length == 0) {
                return null;
            }
            try {
                ZMetadata metadata = new ZMetadata();
                ZmtpMetadata.decode(Unpooled.wrappedBuffer(encoded)).asMap()
                        .forEach((k, v) -> metadata.set(k, new String(v, StandardCharsets.UTF_8)));
                return metadata;
            } catch (ZmtpCodecException e) {
                return null;
            }
        }
    }

    /** A request to the handler (rfc 27): what the server socket's handshake learnt about the peer. */
    public static class ZapRequest {
        private final ZMQ.Socket handler;
        /** "1.0". */
        public final String version;
        /** The request's id, echoed in the reply. */
        public final String sequence;
        /** The server socket's ZAP domain. */
        public final String domain;
        /** The peer's IP address. */
        public final String address;
        /** The server socket's identity. */
        public final String identity;
        /** "NULL", "PLAIN" or "CURVE". */
        public final String mechanism;
        /** PLAIN: the user name the client gave; else null. */
        public final String username;
        /** PLAIN: the password the client gave; else null. */
        public final String password;
        /** CURVE: the client's long-term public key in Z85 (proved by the handshake); else null. */
        public final String clientKey;
        /** Always null: there is no GSSAPI. */
        public final String principal;
        /** The User-Id to reply with: set by an {@link Auth} that allows the peer. */
        public String userId;
        /** Metadata to reply with: set by an {@link Auth} that allows the peer. */
        public ZMetadata metadata;

        ZapRequest(ZMQ.Socket handler, ZMsg request) {
            this.handler = handler;
            version = request.popString();
            sequence = request.popString();
            domain = request.popString();
            address = request.popString();
            identity = request.popString();
            mechanism = request.popString();
            if ("PLAIN".equals(mechanism) && request.size() == 2) {
                username = request.popString();
                password = request.popString();
                clientKey = null;
            } else if ("CURVE".equals(mechanism) && request.size() == 1 && request.peek().size() == 32) {
                username = null;
                password = null;
                clientKey = ZMQ.Curve.z85Encode(request.pop().getData());
            } else {
                username = null;
                password = null;
                clientKey = null;
            }
            principal = null;
        }

        /** Whether the request is one this handler can answer: ZAP 1.0, all frames there. */
        boolean isWellFormed() {
            return ZAP_VERSION.equals(version) && sequence != null && mechanism != null;
        }

        /** Replies to the server socket, and copies the reply to {@code replies} if not null. */
        void reply(int statusCode, String statusText, ZMQ.Socket replies) {
            ZapReply reply = new ZapReply(ZAP_VERSION, sequence == null ? "" : sequence, statusCode, statusText,
                    userId, metadata, address, identity);
            ZMsg msg = reply.msg();
            msg.send(handler, replies == null);
            if (replies != null) {
                msg.add(address == null ? "" : address);
                msg.add(identity == null ? "" : identity);
                msg.send(replies);
            }
        }
    }

    /** {@link #configureCurve(String)}'s location that allows every CURVE client. */
    public static final String CURVE_ALLOW_ANY = "*";

    static final String VERBOSE = "VERBOSE";
    static final String REPLIES = "REPLIES";
    static final String ALLOW = "ALLOW";
    static final String DENY = "DENY";
    static final String TERMINATE = "TERMINATE";
    static final String OK = "OK";
    static final String ERROR = "ERROR";

    private final ZAgent agent;
    private final ZStar.Exit exit;
    private final ZAgent replies;
    private boolean repliesEnabled;

    /** Starts the handler in {@code ctx}, named "ZAuth", with NULL, PLAIN and CURVE. */
    public ZAuth(ZContext ctx) {
        this(ctx, "ZAuth");
    }

    /** As {@link #ZAuth(ZContext)}, the certificate directory watched with {@code fingerprinter}. */
    public ZAuth(ZContext ctx, ZCertStore.Fingerprinter fingerprinter) {
        this(ctx, "ZAuth", withCurve(new SimpleCurveAuth(fingerprinter)));
    }

    /** As {@link #ZAuth(ZContext)}, the actor's thread named {@code actorName}. */
    public ZAuth(ZContext ctx, String actorName) {
        this(ctx, actorName, withCurve(new SimpleCurveAuth()));
    }

    /**
     * Starts the handler in {@code ctx}.
     *
     * @param actorName the actor thread's name
     * @param auths     the deciders by mechanism name ("NULL", "PLAIN", "CURVE"); also configuration commands
     * @throws ZMQException EADDRINUSE if the context has a ZAP handler already
     */
    public ZAuth(final ZContext ctx, String actorName, Map<String, Auth> auths) {
        Objects.requireNonNull(ctx, "ZAuth works only with a provided ZContext");
        Objects.requireNonNull(actorName, "Actor name shall be defined");
        Objects.requireNonNull(auths, "Authenticators shall be supplied as non-null map");
        ZapHandler handler = new ZapHandler(actorName, auths);
        ZActor actor = new ZActor(ctx, handler, UUID.randomUUID().toString());
        agent = actor.agent();
        exit = actor.exit();
        ZMsg started = agent.recv();
        if (started == null || !OK.equals(started.popString())) {
            send(TERMINATE);
            exit.awaitSilent();
            agent.close();
            throw new ZMQException("a ZAP handler is bound in this context already", ZMQ.Error.EADDRINUSE.getCode());
        }
        replies = handler.repliesAgent(ctx);
    }

    private static Map<String, Auth> withCurve(SimpleCurveAuth curve) {
        Map<String, Auth> auths = new HashMap<>();
        auths.put("PLAIN", new SimplePlainAuth());
        auths.put("CURVE", curve);
        auths.put("NULL", new SimpleNullAuth());
        return auths;
    }

    /** As {@link #verbose(boolean)}. */
    public ZAuth setVerbose(boolean verbose) {
        return verbose(verbose);
    }

    /** Whether the handler traces its decisions on standard output. */
    public ZAuth verbose(boolean verbose) {
        return send(VERBOSE, Boolean.toString(verbose));
    }

    /**
     * Allows peers from {@code address} (an IP address as text). Once one address is allowed, every other address
     * is denied; PLAIN and CURVE peers from an allowed address are still checked by their mechanism.
     */
    public ZAuth allow(String address) {
        Objects.requireNonNull(address, "Address has to be supplied for allowance");
        return send(ALLOW, address);
    }

    /** Denies peers from {@code address}, unless some address is allowed (the allow list then decides alone). */
    public ZAuth deny(String address) {
        Objects.requireNonNull(address, "Address has to be supplied for denial");
        return send(DENY, address);
    }

    /** PLAIN users from the password file {@code filename}, for every domain ({@code domain} is not checked). */
    public ZAuth configurePlain(String domain, String filename) {
        Objects.requireNonNull(domain, "Domain has to be supplied");
        Objects.requireNonNull(filename, "File name has to be supplied");
        return send("PLAIN", domain, filename);
    }

    /** CURVE clients whose certificates are in the directory {@code location}, or any ({@link #CURVE_ALLOW_ANY}). */
    public ZAuth configureCurve(String location) {
        Objects.requireNonNull(location, "Location has to be supplied");
        return send("CURVE", location);
    }

    /** Whether each reply is also sent to the channel {@link #nextReply()} reads. */
    public ZAuth replies(boolean enable) {
        repliesEnabled = enable;
        return send(REPLIES, Boolean.toString(enable));
    }

    /** Waits for the next reply; null if replies are off or the handler ended. */
    public ZapReply nextReply() {
        return nextReply(true);
    }

    /** The next reply, waiting for it if {@code wait}; null if none, replies are off or the handler ended. */
    public ZapReply nextReply(boolean wait) {
        return repliesEnabled ? ZapReply.received(replies.recv(wait)) : repliesDisabled();
    }

    /** Waits up to {@code timeout} ms for the next reply; null then, if replies are off or the handler ended. */
    public ZapReply nextReply(int timeout) {
        return repliesEnabled ? ZapReply.received(replies.recv(timeout)) : repliesDisabled();
    }

    private static ZapReply repliesDisabled() {
        System.out.println("ZAuth: replies are disabled. Please use replies(true);");
        return null;
    }

    /** Stops the handler and waits for its thread to end. */
    @Override
    public void close() {
        destroy();
    }

    /** Stops the handler and waits for its thread to end; the context's handshakes then decide without it. */
    public void destroy() {
        try {
            send(TERMINATE);
        } catch (ZMQException e) {
            if (e.getErrorCode() == ErrorCodes.EINTR) {
                throw e; // the actor was not told: close again
            }
            // The context is closed: the actor ends by itself.
        }
        exit.awaitSilent();
        agent.close();
        replies.close();
    }

    /** Sends a command with its arguments to the actor and waits for its answer. */
    protected ZAuth send(String command, String... datas) {
        ZMsg msg = new ZMsg();
        msg.add(command);
        for (String data : datas) {
            msg.add(data);
        }
        agent.send(msg);
        ZMsg answer = agent.recv();
        if (answer != null) {
            answer.destroy();
        }
        return this;
    }

    static void trace(boolean verbose, String format, Object... args) {
        if (verbose) {
            System.out.printf(format + "%n", args);
        }
    }
}
