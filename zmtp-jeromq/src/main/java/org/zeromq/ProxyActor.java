package org.zeromq;

import java.io.IOException;
import java.util.Arrays;
import java.util.List;

/**
 * {@link ZProxy}'s actor: owns the three sockets and the proxy's state on the actor's thread, answers each command
 * on the pipe with the state it leaves the proxy in.
 *
 * <p>STOP and a cold RESTART end the actor's show ({@code looped} returns false); {@code destroyed} then asks for
 * a new one, whose {@code createSockets} makes the sockets again. EXIT ends the show without a new one.
 */
final class ProxyActor extends ZActor.SimpleActor {
    private final String name;
    private final ZProxy.Proxy provider;
    private final ZProxy.Pump pump;
    private Object[] args = new Object[0];
    private ZMQ.Socket frontend;
    private ZMQ.Socket backend;
    private ZMQ.Socket capture;

    private boolean alive;
    /** Configured: the sockets are bound or connected. */
    private boolean started;
    private boolean paused;
    /** Whether the frontend and backend are registered in the show's poller. */
    private boolean pumping;
    /** The show must end and a new one start (STOP, RESTART). */
    private boolean restart;
    /** A hot restart's configuration, waiting for the end of the turn. */
    private ZMsg hot;

    ProxyActor(String name, ZProxy.Proxy provider, ZProxy.Pump pump) {
        this.name = name;
        this.provider = provider;
        this.pump = pump;
    }

    @Override
    public String premiere(ZMQ.Socket pipe) {
        pipe.send(ZProxy.ALIVE);
        return name;
    }

    @Override
    public List<ZMQ.Socket> createSockets(ZContext ctx, Object... args) {
        this.args = args;
        frontend = provider.create(ctx, ZProxy.Plug.FRONT, args);
        capture = provider.create(ctx, ZProxy.Plug.CAPTURE, args);
        backend = provider.create(ctx, ZProxy.Plug.BACK, args);
        if (frontend == null || backend == null) {
            throw new IllegalStateException("the proxy's Proxy made no " + (frontend == null ? "frontend" : "backend"));
        }
        return Arrays.asList(frontend, backend);
    }

    @Override
    public void start(ZMQ.Socket pipe, List<ZMQ.Socket> sockets, ZPoller poller) {
        alive = true;
        restart = false;
        pumping = false;
        if (started) {
            // A cold restart of a started proxy: the new sockets are configured and pumped as the old ones were.
            started = false;
            if (configure() && !paused) {
                pump(poller, true);
            }
        }
    }

    @Override
    public boolean backstage(ZMQ.Socket pipe, ZPoller poller, int events) {
        String cmd = pipe.recvStr();
        if (ZProxy.START.equals(cmd)) {
            if (!configure()) {
                return false;
            }
            paused = false;
            pump(poller, true);
            return status().send(pipe);
        }
        if (ZProxy.PAUSE.equals(cmd)) {
            paused = true;
            pump(poller, false);
            return status().send(pipe);
        }
        if (ZProxy.STOP.equals(cmd)) {
            started = false;
            paused = false;
            restart = true;
            return status().send(pipe);
        }
        if (ZProxy.RESTART.equals(cmd)) {
            restart = true;
            if (Boolean.parseBoolean(pipe.recvStr())) {
                hot = ZMsg.recvMsg(pipe);
                return true;
            }
            return false;
        }
        if (ZProxy.STATUS.equals(cmd)) {
            return status().send(pipe);
        }
        if (ZProxy.CONFIG.equals(cmd)) {
            ZMsg cfg = ZMsg.recvMsg(pipe);
            try {
                return provider.configure(pipe, cfg, frontend, backend, capture, args);
            } finally {
                cfg.destroy();
            }
        }
        if (ZProxy.EXIT.equals(cmd)) {
            restart = false;
            return false;
        }
        return provider.custom(pipe, cmd, frontend, backend, capture, args);
    }

    /** Configures the sockets unless done; false if the provider failed (the proxy then ends). */
    private boolean configure() {
        if (started) {
            return true;
        }
        try {
            provider.configure(frontend, ZProxy.Plug.FRONT, args);
            provider.configure(backend, ZProxy.Plug.BACK, args);
            provider.configure(capture, ZProxy.Plug.CAPTURE, args);
        } catch (RuntimeException | IOException e) {
            ZAuth.trace(true, "ZProxy %s: configuring the sockets failed: %s", name, e);
            restart = false;
            return false;
        }
        started = true;
        return true;
    }

    /** Registers or unregisters the frontend and backend, once each. */
    private void pump(ZPoller poller, boolean on) {
        if (on == pumping) {
            return;
        }
        pumping = on;
        if (on) {
            poller.register(frontend, ZPoller.POLLIN);
            poller.register(backend, ZPoller.POLLIN);
        } else {
            poller.unregister(frontend);
            poller.unregister(backend);
        }
    }

    private ZMsg status() {
        ZMsg reply = new ZMsg();
        reply.add(!alive ? ZProxy.EXITED : paused ? ZProxy.PAUSED : started ? ZProxy.STARTED : ZProxy.STOPPED);
        return reply;
    }

    @Override
    public boolean stage(ZMQ.Socket socket, ZMQ.Socket pipe, ZPoller poller, int events) {
        if (socket == frontend) {
            return pump.flow(ZProxy.Plug.FRONT, frontend, capture, ZProxy.Plug.BACK, backend);
        }
        if (socket == backend) {
            return pump.flow(ZProxy.Plug.BACK, backend, capture, ZProxy.Plug.FRONT, frontend);
        }
        return true;
    }

    @Override
    public boolean looped(ZMQ.Socket pipe, ZPoller poller) {
        if (!restart) {
            return true;
        }
        ZMsg cfg = hot;
        hot = null;
        if (cfg == null) {
            return false; // STOP or a cold restart: a new show
        }
        boolean cold;
        try {
            cold = hotRestart(cfg, frontend, ZProxy.Plug.FRONT) | hotRestart(cfg, backend, ZProxy.Plug.BACK)
                    | hotRestart(cfg, capture, ZProxy.Plug.CAPTURE);
        } catch (RuntimeException | IOException e) {
            ZAuth.trace(true, "ZProxy %s: hot restart failed: %s", name, e);
            restart = false;
            return false;
        } finally {
            cfg.destroy();
        }
        restart = cold;
        return !cold;
    }

    private boolean hotRestart(ZMsg cfg, ZMQ.Socket socket, ZProxy.Plug place) throws IOException {
        ZMsg copy = cfg.duplicate();
        try {
            return provider.restart(copy, socket, place, args);
        } finally {
            copy.destroy();
        }
    }

    @Override
    public boolean destroyed(ZContext ctx, ZMQ.Socket pipe, ZPoller poller) {
        if (capture != null) {
            capture.close();
        }
        alive = false;
        if (!restart) {
            status().send(pipe);
        }
        return restart;
    }
}
