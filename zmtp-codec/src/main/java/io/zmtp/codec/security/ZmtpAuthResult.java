package io.zmtp.codec.security;

import io.zmtp.codec.ZmtpMetadata;

import java.util.Objects;

/**
 * A {@link ZmtpAuthenticator}'s decision: a ZAP status code (rfc 27: 200 allowed, 300 temporary failure, 400
 * refused, 500 internal error) with its text, and for an allowed peer the user id and metadata the application
 * sees on the connection ({@code ZmtpHandshakeSuccessEvent#userId()} and {@code #authMetadata()}). Immutable.
 *
 * <p>A refused peer gets an ERROR command whose reason is the status code, as libzmq sends it, except after 300,
 * which closes the connection without one (rfc 27 and libzmq: the client should retry later).
 *
 * @see <a href="https://rfc.zeromq.org/spec/27/">27/ZAP, "Reply"</a>
 */
public final class ZmtpAuthResult {
    public static final int OK = 200;
    public static final int TEMPORARY_FAILURE = 300;
    public static final int REFUSED = 400;
    public static final int INTERNAL_ERROR = 500;

    private final int statusCode;
    private final String statusText;
    private final String userId;
    private final ZmtpMetadata metadata;

    private ZmtpAuthResult(int statusCode, String statusText, String userId, ZmtpMetadata metadata) {
        if (statusCode != OK && statusCode != TEMPORARY_FAILURE && statusCode != REFUSED
                && statusCode != INTERNAL_ERROR) {
            throw new IllegalArgumentException("ZAP status code: " + statusCode + " (expected: 200, 300, 400, 500)");
        }
        this.statusCode = statusCode;
        this.statusText = Objects.requireNonNull(statusText, "statusText");
        this.userId = Objects.requireNonNull(userId, "userId");
        this.metadata = Objects.requireNonNull(metadata, "metadata");
    }

    /** Allowed, with no user id. */
    public static ZmtpAuthResult allow() {
        return allow("", ZmtpMetadata.EMPTY);
    }

    /** Allowed as {@code userId}. */
    public static ZmtpAuthResult allow(String userId) {
        return allow(userId, ZmtpMetadata.EMPTY);
    }

    /** Allowed as {@code userId}, with properties the application sees on the connection. */
    public static ZmtpAuthResult allow(String userId, ZmtpMetadata metadata) {
        return new ZmtpAuthResult(OK, "OK", userId, metadata);
    }

    /** Refused (400). */
    public static ZmtpAuthResult deny(String statusText) {
        return new ZmtpAuthResult(REFUSED, statusText, "", ZmtpMetadata.EMPTY);
    }

    /** Any status; for a ZAP reply as it came. User id and metadata count only with 200. */
    public static ZmtpAuthResult of(int statusCode, String statusText, String userId, ZmtpMetadata metadata) {
        return new ZmtpAuthResult(statusCode, statusText, userId, metadata);
    }

    public boolean isAllowed() {
        return statusCode == OK;
    }

    public int statusCode() {
        return statusCode;
    }

    public String statusText() {
        return statusText;
    }

    /** The user id of an allowed peer ("" if none). */
    public String userId() {
        return userId;
    }

    /** Properties for an allowed peer's connection. */
    public ZmtpMetadata metadata() {
        return metadata;
    }

    @Override
    public String toString() {
        return "ZmtpAuthResult{" + statusCode + " " + statusText + (userId.isEmpty() ? "" : ", user " + userId) + '}';
    }
}
