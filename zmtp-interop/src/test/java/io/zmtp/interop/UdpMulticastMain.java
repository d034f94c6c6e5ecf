package io.zmtp.interop;

import io.zmtp.codec.ZmtpMessage;
import io.zmtp.codec.ZmtpSocketType;
import io.zmtp.socket.ZmtpContext;
import io.zmtp.socket.ZmtpSocket;

import java.time.Duration;

/**
 * RADIO and DISH over udp:// multicast in one process, run inside a network namespace by {@link UdpMulticastIT} so
 * that what it sends can reach no interface but the namespace's own: a DISH joins {@code weather} on the group
 * {@code args[1]}:{@code args[2]} through interface {@code args[0]}, a RADIO sends there out of the same interface
 * (multicast loop on, libzmq's default, brings it back to the DISH). Prints {@code BOUND <endpoint>}, then a
 * {@code group|body} line per message received, until 3 or 20 s.
 */
public final class UdpMulticastMain {
    private UdpMulticastMain() {
    }

    public static void main(String[] args) {
        if (args[0].equals("radio") || args[0].equals("dish")) {
            one(args[0], args[1]);
            return;
        }
        String endpoint = "udp://" + args[0] + ";" + args[1] + ":" + args[2];
        try (ZmtpContext context = new ZmtpContext()) {
            ZmtpSocket dish = context.socket(ZmtpSocketType.DISH);
            dish.join("weather");
            System.out.println("BOUND " + dish.bind(endpoint));
            ZmtpSocket radio = context.socket(ZmtpSocketType.RADIO);
            radio.connect(endpoint);
            long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
            // Datagrams sent before the membership is in place are lost: send until three arrive.
            for (int got = 0, i = 0; got < 3 && System.nanoTime() < deadline; i++) {
                radio.send(ZmtpMessage.of("not joined " + i).group("sports"));
                radio.send(ZmtpMessage.of("rain " + i).group("weather"));
                ZmtpMessage m = dish.receive(Duration.ofMillis(50));
                if (m != null) {
                    System.out.println(m.group() + "|" + m.frameString(0));
                    m.release();
                    got++;
                }
            }
            System.out.flush();
        }
    }

    /**
     * One side only, for a libzmq peer in the same namespace: {@code radio ENDPOINT} sends {@code hello-N} to
     * {@code g1} and {@code other-N} to {@code g2} every 20 ms for 15 s; {@code dish ENDPOINT} joins {@code g1}, prints
     * {@code BOUND <endpoint>}, then a {@code group|body} line per message until 3 or 15 s.
     */
    private static void one(String role, String endpoint) {
        try (ZmtpContext context = new ZmtpContext()) {
            long deadline = System.nanoTime() + Duration.ofSeconds(15).toNanos();
            if (role.equals("radio")) {
                ZmtpSocket radio = context.socket(ZmtpSocketType.RADIO);
                radio.connect(endpoint);
                System.out.println("CONNECTED " + endpoint);
                System.out.flush();
                for (int i = 0; System.nanoTime() < deadline; i++) {
                    radio.send(ZmtpMessage.of("other-" + i).group("g2"));
                    radio.send(ZmtpMessage.of("hello-" + i).group("g1"));
                    sleep(20);
                }
                return;
            }
            ZmtpSocket dish = context.socket(ZmtpSocketType.DISH);
            dish.join("g1");
            System.out.println("BOUND " + dish.bind(endpoint));
            System.out.flush();
            for (int got = 0; got < 3 && System.nanoTime() < deadline; ) {
                ZmtpMessage m = dish.receive(Duration.ofMillis(100));
                if (m != null) {
                    System.out.println(m.group() + "|" + m.frameString(0));
                    System.out.flush();
                    m.release();
                    got++;
                }
            }
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
