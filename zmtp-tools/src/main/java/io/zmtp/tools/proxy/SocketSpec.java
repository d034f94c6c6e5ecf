package io.zmtp.tools.proxy;

import io.zmtp.codec.ZmtpSocketType;
import io.zmtp.socket.ZmtpContext;
import io.zmtp.socket.ZmtpSocket;
import io.zmtp.tools.WssOptions;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * A socket named on the command line as CZMQ names them: its type, then endpoints, each after {@code @} (bind) or
 * {@code >} (connect), separated by commas: {@code ROUTER@tcp://*:5555}, {@code DEALER>tcp://10.0.0.7:5556},
 * {@code PUB@tcp://*:5557,@ipc:///tmp/capture}.
 */
final class SocketSpec {
    final ZmtpSocketType type;
    final List<String> binds;
    final List<String> connects;

    private SocketSpec(ZmtpSocketType type, List<String> binds, List<String> connects) {
        this.type = type;
        this.binds = Collections.unmodifiableList(binds);
        this.connects = Collections.unmodifiableList(connects);
    }

    static SocketSpec parse(String spec) {
        int at = firstOf(spec, 0);
        if (at <= 0) {
            throw new IllegalArgumentException("socket: " + spec
                    + " (expected: TYPE@endpoint to bind or TYPE>endpoint to connect, e.g. ROUTER@tcp://*:5555)");
        }
        ZmtpSocketType type = ZmtpSocketType.parse(spec.substring(0, at));
        List<String> binds = new ArrayList<>();
        List<String> connects = new ArrayList<>();
        for (String item : spec.substring(at).split(",")) {
            if (item.length() < 2 || (item.charAt(0) != '@' && item.charAt(0) != '>')) {
                throw new IllegalArgumentException("endpoint: '" + item + "' in " + spec
                        + " (expected: @endpoint to bind or >endpoint to connect)");
            }
            (item.charAt(0) == '@' ? binds : connects).add(item.substring(1));
        }
        return new SocketSpec(type, binds, connects);
    }

    private static int firstOf(String s, int from) {
        for (int i = from; i < s.length(); i++) {
            if (s.charAt(i) == '@' || s.charAt(i) == '>') {
                return i;
            }
        }
        return -1;
    }

    /**
     * A socket of this type on {@code context}, with the wss:// options, bound and connected as given; adds what was
     * bound to {@code bound}.
     */
    ZmtpSocket open(ZmtpContext context, WssOptions wss, PrintStream err, List<String> bound) {
        binds.forEach(wss::checkBind);
        ZmtpSocket socket = context.socket(type);
        try {
            wss.apply(socket, err);
        } catch (IllegalArgumentException e) {
            socket.close();
            throw e;
        }
        for (String endpoint : binds) {
            bound.add(socket.bind(endpoint));
        }
        for (String endpoint : connects) {
            socket.connect(endpoint);
        }
        return socket;
    }

    /** Parses specs for picocli. */
    static final class Converter implements picocli.CommandLine.ITypeConverter<SocketSpec> {
        @Override
        public SocketSpec convert(String value) {
            return parse(value);
        }
    }
}
