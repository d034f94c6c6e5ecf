package zmq;

/**
 * What {@link org.zeromq.ZMQ.Socket#base()} returns: the socket by JeroMQ's internal name, with the calls
 * applications make on it. Options are read and set by their {@link ZMQ} numbers ({@code ZMQ.ZMQ_LAST_ENDPOINT},
 * {@code ZMQ.ZMQ_LINGER}...), each mapped onto the socket's own getter or setter, with the value types JeroMQ uses:
 * {@code Integer} for numbers ({@code Long} for {@code ZMQ_AFFINITY} and {@code ZMQ_MAXMSGSIZE}), {@code Boolean}
 * for flags, {@code String} for endpoints, names and PLAIN credentials, {@code byte[]} for identities, keys and the
 * heartbeat context.
 *
 * <p>The rest of JeroMQ's {@code SocketBase} (its own bind, connect, send and receive of {@code zmq.Msg}, monitor
 * hooks, event emitters, {@code getFD}) is absent: the {@link org.zeromq.ZMQ.Socket} it came from has each of them.
 */
public abstract class SocketBase {
    /** For {@link org.zeromq.ZMQ.Socket#base()}. */
    protected SocketBase() {
    }

    /**
     * Sets an option.
     *
     * @param option one of {@link ZMQ}'s {@code ZMQ_*} option numbers
     * @param optval an {@code Integer}, {@code Long}, {@code Boolean}, {@code String} or {@code byte[]}; a flag
     *               also takes a number (0 is false), a text option also takes UTF-8 bytes and the reverse
     * @return true if it was set; false with {@link #errno()} {@code EINVAL} for a value out of range
     * @throws IllegalArgumentException for an option number JeroMQ doesn't have, as JeroMQ's does
     * @throws org.zeromq.ZMQException   as the socket's own setter throws (ENOTSUP for behaviour netty-zmtp lacks)
     */
    public abstract boolean setSocketOpt(int option, Object optval);

    /**
     * An option's value as an {@code int}: a number, or 1 and 0 for a flag ({@code ZMQ_RCVMORE}, {@code ZMQ_EVENTS}
     * and {@code ZMQ_TYPE} included).
     *
     * @throws IllegalArgumentException if the option's value is neither a number nor a flag, as in JeroMQ
     */
    public abstract int getSocketOpt(int option);

    /**
     * An option's value, of the option's type (see above); null with {@link #errno()} {@code EINVAL} for
     * {@code ZMQ_FD}, which no descriptor stands behind.
     *
     * @throws IllegalArgumentException for an option number JeroMQ doesn't have, or one of JeroMQ's internal types
     *                                  (message allocator, encoder, decoder, selector chooser)
     */
    public abstract Object getSocketOptx(int option);

    /** The socket's last error: its {@link org.zeromq.ZMQ.Socket#errno()}. */
    public abstract int errno();
}
