package org.zeromq;

import java.nio.channels.SelectableChannel;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;

/**
 * An actor, as JeroMQ 0.6.0's {@code ZActor}: a {@link ZStar} whose show is a {@link ZPoller} loop over the pipe and
 * the actor's sockets, calling an {@link Actor}'s methods.
 *
 * <h2>Lifecycle, on the actor's thread</h2>
 * {@code premiere} names the thread; {@code createSockets} makes the actor's sockets (in the actor's context, a
 * shadow of the caller's); {@code start} is called with the pipe registered for POLLIN in the poller (the actor
 * registers its own sockets there). Then each turn polls for {@code looping}'s timeout (-1: forever) and calls
 * {@code backstage} when the pipe is ready and {@code stage} when one of the actor's sockets is; either returning
 * false ends the loop, as does {@code looped} returning false. At the end the actor's sockets are closed
 * ({@code closed} for each) and {@code destroyed} says whether to start again (a new round of {@code createSockets}).
 * Last, {@code finished} says whether to send the lock word, which locks the caller's agent.
 *
 * <p>Closing the caller's context ends the loop (ETERM); {@code finished} is still called, and the actor's sockets
 * are closed with its context. Stop an actor with a command on the pipe that its {@code backstage} answers with
 * false; closing the caller's end of the pipe alone doesn't stop it.
 */
public class ZActor extends ZStar {
    /** What an actor does at each step of its lifecycle (see the class comment). */
    public interface Actor {
        /** The actor thread's name, or null for a default one. */
        String premiere(ZMQ.Socket pipe);

        /** Makes the actor's sockets in {@code ctx}; {@code args} are the ZActor's arguments. */
        List<ZMQ.Socket> createSockets(ZContext ctx, Object... args);

        /** Called before the loop, with the pipe registered in {@code poller}: register the sockets to watch. */
        void start(ZMQ.Socket pipe, List<ZMQ.Socket> sockets, ZPoller poller);

        /** Called before each poll: its timeout in ms, -1 for none. */
        long looping(ZMQ.Socket pipe, ZPoller poller);

        /** The pipe has {@code events}; false ends the loop. */
        boolean backstage(ZMQ.Socket pipe, ZPoller poller, int events);

        /** One of the actor's sockets has {@code events}; false ends the loop. */
        boolean stage(ZMQ.Socket socket, ZMQ.Socket pipe, ZPoller poller, int events);

        /** Called after each poll's handlers; false ends the loop. */
        boolean looped(ZMQ.Socket pipe, ZPoller poller);

        /** {@code socket}, one of the actor's, was just closed. */
        void closed(ZMQ.Socket socket);

        /** Called after the loop and the sockets' closing; true starts the actor again. */
        boolean destroyed(ZContext ctx, ZMQ.Socket pipe, ZPoller poller);

        /** Called last; true sends the lock word down the pipe. */
        boolean finished(ZMQ.Socket pipe);
    }

    /**
     * An actor that does nothing: no sockets, no timeout; the loop ends at the first message on the pipe or event
     * of a socket; not started again; sends the lock word at the end. Override what matters.
     */
    public static class SimpleActor implements Actor {
        @Override
        public String premiere(final ZMQ.Socket pipe) {
            return null;
        }

        @Override
        public List<ZMQ.Socket> createSockets(final ZContext ctx, final Object... args) {
            return Collections.emptyList();
        }

        @Override
        public void start(final ZMQ.Socket pipe, final List<ZMQ.Socket> sockets, final ZPoller poller) {
        }

        @Override
        public long looping(ZMQ.Socket pipe, ZPoller poller) {
            return -1;
        }

        @Override
        public boolean backstage(final ZMQ.Socket pipe, final ZPoller poller, final int events) {
            return false;
        }

        @Override
        public boolean stage(final ZMQ.Socket socket, final ZMQ.Socket pipe, final ZPoller poller, int events) {
            return false;
        }

        @Override
        public boolean looped(final ZMQ.Socket pipe, final ZPoller poller) {
            return true;
        }

        @Override
        public void closed(final ZMQ.Socket socket) {
        }

        @Override
        public boolean destroyed(final ZContext ctx, final ZMQ.Socket pipe, final ZPoller poller) {
            return false;
        }

        @Override
        public boolean finished(final ZMQ.Socket pipe) {
            return true;
        }
    }

    /**
     * Two actors as one: each step is called on the shadow, then on the main actor, whose result counts. Sockets
     * the shadow makes are not watched or closed by the loop (JeroMQ's behaviour): it closes them itself.
     */
    public static class Duo implements Actor {
        private final Actor main;
        private final Actor shadow;

        /**
         * @param main   the actor whose results count
         * @param shadow the actor called first at each step
         */
        public Duo(final Actor main, final Actor shadow) {
            this.main = Objects.requireNonNull(main, "Actor shall be set to a non-null value");
            this.shadow = Objects.requireNonNull(shadow, "Shadow Actor shall be set to a non-null value");
        }

        @Override
        public String premiere(final ZMQ.Socket pipe) {
            shadow.premiere(pipe);
            return main.premiere(pipe);
        }

        @Override
        public List<ZMQ.Socket> createSockets(final ZContext ctx, final Object... args) {
            shadow.createSockets(ctx, args);
            return main.createSockets(ctx, args);
        }

        @Override
        public void start(final ZMQ.Socket pipe, final List<ZMQ.Socket> sockets, final ZPoller poller) {
            shadow.start(pipe, sockets, poller);
            main.start(pipe, sockets, poller);
        }

        @Override
        public long looping(ZMQ.Socket pipe, ZPoller poller) {
            shadow.looping(pipe, poller);
            return main.looping(pipe, poller);
        }

        @Override
        public boolean backstage(final ZMQ.Socket pipe, final ZPoller poller, final int events) {
            shadow.backstage(pipe, poller, events);
            return main.backstage(pipe, poller, events);
        }

        @Override
        public boolean stage(final ZMQ.Socket socket, final ZMQ.Socket pipe, final ZPoller poller, final int events) {
            shadow.stage(socket, pipe, poller, events);
            return main.stage(socket, pipe, poller, events);
        }

        @Override
        public boolean looped(final ZMQ.Socket pipe, final ZPoller poller) {
            shadow.looped(pipe, poller);
            return main.looped(pipe, poller);
        }

        @Override
        public void closed(final ZMQ.Socket socket) {
            shadow.closed(socket);
            main.closed(socket);
        }

        @Override
        public boolean destroyed(final ZContext ctx, final ZMQ.Socket pipe, final ZPoller poller) {
            shadow.destroyed(ctx, pipe, poller);
            return main.destroyed(ctx, pipe, poller);
        }

        @Override
        public boolean finished(final ZMQ.Socket pipe) {
            shadow.finished(pipe);
            return main.finished(pipe);
        }
    }

    /** An actor with a context of its own, closed when it ends. */
    public ZActor(final Actor actor, final String motdelafin, final Object... args) {
        super(new ActorFortune(actor), motdelafin, args);
    }

    /**
     * @deprecated as in JeroMQ 0.6.0; the selector is not used
     */
    @Deprecated
    public ZActor(final SelectorCreator selector, final Actor actor, final String motdelafin, final Object... args) {
        this(actor, motdelafin, args);
    }

    /**
     * @deprecated as in JeroMQ 0.6.0; the selector is not used
     */
    @Deprecated
    public ZActor(final ZContext context, final SelectorCreator selector, final Actor actor, final String motdelafin,
            final Object... args) {
        this(context, actor, motdelafin, args);
    }

    /**
     * Starts {@code actor} on its own thread.
     *
     * @param context    the context whose shadow the actor runs in (null: one of its own)
     * @param actor      what the actor does
     * @param motdelafin the lock word sent when the actor finishes, or null
     * @param args       arguments for {@link Actor#createSockets}
     */
    public ZActor(final ZContext context, final Actor actor, final String motdelafin, final Object... args) {
        super(context, new ActorFortune(actor), motdelafin, args);
    }

    /** Plays an {@link Actor}: a new {@link Stage} per show. */
    private static final class ActorFortune implements Fortune {
        private final Actor actor;

        ActorFortune(Actor actor) {
            this.actor = Objects.requireNonNull(actor, "Actor shall be set to a non-null value");
        }

        @Override
        public String premiere(ZMQ.Socket mic, Object... args) {
            return actor.premiere(mic);
        }

        @Override
        public Star create(ZContext ctx, ZMQ.Socket pipe, int count, Star previous, Object... args) {
            return new Stage(ctx, pipe, actor, args);
        }

        @Override
        public boolean interview(ZMQ.Socket mic) {
            return actor.finished(mic);
        }

        @Override
        public void party(ZContext ctx) {
        }
    }

    /** One show of an actor: its sockets and its poller, the poller's events handed to the actor. */
    private static final class Stage implements ZPoller.EventsHandler, Star {
        private final ZContext context;
        private final ZMQ.Socket pipe;
        private final Actor actor;
        private final List<ZMQ.Socket> sockets;
        private final ZPoller poller;

        Stage(ZContext ctx, ZMQ.Socket pipe, Actor actor, Object... args) {
            this.context = ctx;
            this.pipe = pipe;
            this.actor = actor;
            this.sockets = new ArrayList<>(Objects.requireNonNull(actor.createSockets(ctx, args), "sockets"));
            this.poller = new ZPoller(ctx);
            poller.setGlobalHandler(this);
        }

        @Override
        public void prepare() {
            poller.register(pipe, ZPoller.POLLIN);
            actor.start(pipe, Collections.unmodifiableList(sockets), poller);
        }

        @Override
        public int breathe() {
            return poller.poll(actor.looping(pipe, poller));
        }

        @Override
        public boolean act(int events) {
            // -1: a handler returned false.
            return events >= 0;
        }

        @Override
        public boolean entract() {
            return actor.looped(pipe, poller);
        }

        @Override
        public boolean renews() {
            for (ZMQ.Socket socket : sockets) {
                if (socket != null) {
                    poller.unregister(socket);
                    socket.close();
                    actor.closed(socket);
                }
            }
            sockets.clear();
            boolean again = actor.destroyed(context, pipe, poller);
            // The next show makes a poller of its own: this one's registrations are released.
            poller.close();
            return again;
        }

        @Override
        public boolean events(SelectableChannel channel, int events) {
            return true;
        }

        @Override
        public boolean events(final ZMQ.Socket socket, final int events) {
            return socket == pipe ? actor.backstage(pipe, poller, events) : actor.stage(socket, pipe, poller, events);
        }
    }
}
