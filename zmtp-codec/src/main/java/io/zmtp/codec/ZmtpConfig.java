package io.zmtp.codec;

import io.zmtp.codec.mechanism.NullMechanism;
import io.zmtp.codec.mechanism.ZmtpMechanismFactory;
import io.zmtp.codec.security.ZmtpAuthenticator;

import java.util.Collections;
import java.util.EnumSet;
import java.util.Objects;
import java.util.Set;
import java.util.function.Supplier;

/**
 * Everything a {@link ZmtpHandshakeHandler} (and the handlers it installs) needs to know about its side of a
 * connection. Immutable and shareable by any number of connections; build one with {@link #builder(ZmtpSocketType)}.
 */
public final class ZmtpConfig {
    private final ZmtpSocketType socketType;
    private final byte[] identity;
    private final ZmtpMetadata properties;
    private final ZmtpMechanismFactory mechanism;
    private final ZmtpAuthenticator authenticator;
    private final String zapDomain;
    private final long maxMessageSize;
    private final long handshakeTimeoutMillis;
    private final long heartbeatIntervalMillis;
    private final long heartbeatTtlMillis;
    private final long heartbeatTimeoutMillis;
    private final Supplier<? extends ZmtpMessageReader> messageReader;
    private final ZmtpMessageWriter<?> messageWriter;
    private final Set<ZmtpVersion> acceptedVersions;
    private final ZmtpMetadata localMetadata;

    private ZmtpConfig(Builder b) {
        this.socketType = b.socketType;
        this.identity = b.identity.clone();
        this.properties = b.properties;
        this.mechanism = b.mechanism;
        this.authenticator = b.authenticator;
        this.zapDomain = b.zapDomain;
        this.maxMessageSize = b.maxMessageSize;
        this.handshakeTimeoutMillis = b.handshakeTimeoutMillis;
        this.heartbeatIntervalMillis = b.heartbeatIntervalMillis;
        this.heartbeatTtlMillis = b.heartbeatTtlMillis;
        this.heartbeatTimeoutMillis = b.heartbeatTimeoutMillis < 0 ? b.heartbeatIntervalMillis
                : b.heartbeatTimeoutMillis;
        this.messageReader = b.messageReader;
        this.messageWriter = b.messageWriter;
        this.acceptedVersions = Collections.unmodifiableSet(EnumSet.copyOf(b.acceptedVersions));
        ZmtpMetadata.Builder md = ZmtpMetadata.builder().socketType(socketType);
        if (socketType.announcesIdentity()) {
            md.identity(identity);
        }
        this.localMetadata = md.putAll(properties).build();
    }

    public static Builder builder(ZmtpSocketType socketType) {
        return new Builder(socketType);
    }

    /** A builder starting from this configuration. */
    public Builder toBuilder() {
        Builder b = new Builder(socketType);
        b.identity = identity;
        b.properties = properties;
        b.mechanism = mechanism;
        b.authenticator = authenticator;
        b.zapDomain = zapDomain;
        b.maxMessageSize = maxMessageSize;
        b.handshakeTimeoutMillis = handshakeTimeoutMillis;
        b.heartbeatIntervalMillis = heartbeatIntervalMillis;
        b.heartbeatTtlMillis = heartbeatTtlMillis;
        b.heartbeatTimeoutMillis = heartbeatTimeoutMillis;
        b.messageReader = messageReader;
        b.messageWriter = messageWriter;
        b.acceptedVersions = EnumSet.copyOf(acceptedVersions);
        return b;
    }

    public ZmtpSocketType socketType() {
        return socketType;
    }

    public byte[] identity() {
        return identity.clone();
    }

    int identityLength() {
        return identity.length;
    }

    /** The metadata this side announces: Socket-Type, Identity where the type announces one, then user properties. */
    public ZmtpMetadata localMetadata() {
        return localMetadata;
    }

    public ZmtpMechanismFactory mechanism() {
        return mechanism;
    }

    /** Who decides whether a peer may connect; {@link ZmtpAuthenticator#LIBZMQ_DEFAULT} unless one was set. */
    public ZmtpAuthenticator authenticator() {
        return authenticator;
    }

    /** The ZAP domain passed to the authenticator ("" if none), as libzmq's ZMQ_ZAP_DOMAIN. */
    public String zapDomain() {
        return zapDomain;
    }

    public long maxMessageSize() {
        return maxMessageSize;
    }

    public long handshakeTimeoutMillis() {
        return handshakeTimeoutMillis;
    }

    public long heartbeatIntervalMillis() {
        return heartbeatIntervalMillis;
    }

    public long heartbeatTtlMillis() {
        return heartbeatTtlMillis;
    }

    public long heartbeatTimeoutMillis() {
        return heartbeatTimeoutMillis;
    }

    public ZmtpMessageReader newMessageReader() {
        return messageReader.get();
    }

    public ZmtpMessageWriter<?> messageWriter() {
        return messageWriter;
    }

    public Set<ZmtpVersion> acceptedVersions() {
        return acceptedVersions;
    }

    public static final class Builder {
        private final ZmtpSocketType socketType;
        private byte[] identity = new byte[0];
        private ZmtpMetadata properties = ZmtpMetadata.EMPTY;
        private ZmtpMechanismFactory mechanism = NullMechanism.factory();
        private ZmtpAuthenticator authenticator = ZmtpAuthenticator.LIBZMQ_DEFAULT;
        private String zapDomain = "";
        private long maxMessageSize = ZmtpConstants.DEFAULT_MAX_MESSAGE_SIZE;
        private long handshakeTimeoutMillis = ZmtpConstants.DEFAULT_HANDSHAKE_TIMEOUT_MILLIS;
        private long heartbeatIntervalMillis;
        private long heartbeatTtlMillis;
        private long heartbeatTimeoutMillis = -1;
        private Supplier<? extends ZmtpMessageReader> messageReader = DefaultZmtpMessageReader::new;
        private ZmtpMessageWriter<?> messageWriter;
        private Set<ZmtpVersion> acceptedVersions = EnumSet.allOf(ZmtpVersion.class);

        private Builder(ZmtpSocketType socketType) {
            this.socketType = Objects.requireNonNull(socketType, "socketType");
        }

        /** The identity (routing id) to announce: 0 to 255 bytes. */
        public Builder identity(byte[] identity) {
            Objects.requireNonNull(identity, "identity");
            if (identity.length > 255) {
                throw new IllegalArgumentException("identity length: " + identity.length + " (expected: <= 255)");
            }
            this.identity = identity.clone();
            return this;
        }

        /** Extra properties for READY (libzmq's ZMQ_METADATA); names starting "X-" are the application's. */
        public Builder properties(ZmtpMetadata properties) {
            this.properties = Objects.requireNonNull(properties, "properties");
            return this;
        }

        /**
         * The security mechanism: {@code NullMechanism.factory()} (the default), {@code PlainMechanism.client/server}
         * or {@code CurveMechanism.client/server}. Both ends must use the same one.
         */
        public Builder mechanism(ZmtpMechanismFactory mechanism) {
            this.mechanism = Objects.requireNonNull(mechanism, "mechanism");
            return this;
        }

        /**
         * Decides whether a peer may connect: asked by the server side of PLAIN and CURVE and by both sides of NULL.
         * Without one, PLAIN servers refuse every client and CURVE servers accept any client key, as libzmq does
         * without a ZAP handler.
         */
        public Builder authenticator(ZmtpAuthenticator authenticator) {
            this.authenticator = Objects.requireNonNull(authenticator, "authenticator");
            return this;
        }

        /** The ZAP domain the authenticator is told (libzmq's ZMQ_ZAP_DOMAIN); at most 255 bytes. */
        public Builder zapDomain(String zapDomain) {
            Objects.requireNonNull(zapDomain, "zapDomain");
            if (zapDomain.length() > 255) {
                throw new IllegalArgumentException("zapDomain length: " + zapDomain.length() + " (expected: <= 255)");
            }
            this.zapDomain = zapDomain;
            return this;
        }

        /** Largest message (all frames together) accepted from the peer; larger closes the connection. */
        public Builder maxMessageSize(long maxMessageSize) {
            if (maxMessageSize <= 0 || maxMessageSize > Integer.MAX_VALUE - 16) {
                throw new IllegalArgumentException("maxMessageSize: " + maxMessageSize + " (expected: 1.."
                        + (Integer.MAX_VALUE - 16) + ")");
            }
            this.maxMessageSize = maxMessageSize;
            return this;
        }

        /** How long the greeting and security handshake may take; 0 for no limit. */
        public Builder handshakeTimeoutMillis(long millis) {
            this.handshakeTimeoutMillis = checkNotNegative(millis, "handshakeTimeoutMillis");
            return this;
        }

        /** Send a PING this often (0 = never), as ZMQ_HEARTBEAT_IVL. */
        public Builder heartbeatIntervalMillis(long millis) {
            this.heartbeatIntervalMillis = checkNotNegative(millis, "heartbeatIntervalMillis");
            return this;
        }

        /** The TTL our PINGs ask the peer to apply (ZMQ_HEARTBEAT_TTL); sent in deciseconds, at most 6553.5 s. */
        public Builder heartbeatTtlMillis(long millis) {
            if (millis < 0 || millis > 6_553_500) {
                throw new IllegalArgumentException("heartbeatTtlMillis: " + millis + " (expected: 0..6553500)");
            }
            this.heartbeatTtlMillis = millis;
            return this;
        }

        /** Close when nothing arrives this long after a PING (ZMQ_HEARTBEAT_TIMEOUT); defaults to the interval. */
        public Builder heartbeatTimeoutMillis(long millis) {
            this.heartbeatTimeoutMillis = checkNotNegative(millis, "heartbeatTimeoutMillis");
            return this;
        }

        /** How message frames are turned into objects; the default builds {@link ZmtpMessage}s. */
        public Builder messageReader(Supplier<? extends ZmtpMessageReader> messageReader) {
            this.messageReader = Objects.requireNonNull(messageReader, "messageReader");
            return this;
        }

        /** A writer for the application's own outbound objects (ZmtpMessages are always accepted too). */
        public Builder messageWriter(ZmtpMessageWriter<?> messageWriter) {
            this.messageWriter = messageWriter;
            return this;
        }

        /**
         * The protocol versions to accept; a peer that speaks another closes with
         * {@link ZmtpHandshakeFailureReason#VERSION_REFUSED}. All by default. With only ZMTP 3.x versions, a
         * connection still starts with libzmq's staged greeting, which 3.x peers read as an ordinary greeting.
         */
        public Builder acceptedVersions(Set<ZmtpVersion> versions) {
            if (versions.isEmpty()) {
                throw new IllegalArgumentException("acceptedVersions: empty");
            }
            this.acceptedVersions = EnumSet.copyOf(versions);
            return this;
        }

        /** Speak only {@code version} (ZMTP_30 and ZMTP_31 both mean "3.x"). */
        public Builder onlyVersion(ZmtpVersion version) {
            if (version.hasCommands()) {
                return acceptedVersions(EnumSet.of(ZmtpVersion.ZMTP_30, ZmtpVersion.ZMTP_31));
            }
            return acceptedVersions(EnumSet.of(version));
        }

        public ZmtpConfig build() {
            return new ZmtpConfig(this);
        }

        private static long checkNotNegative(long value, String name) {
            if (value < 0) {
                throw new IllegalArgumentException(name + ": " + value + " (expected: >= 0)");
            }
            return value;
        }
    }
}
