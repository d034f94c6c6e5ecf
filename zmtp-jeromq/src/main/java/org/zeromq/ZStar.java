package org.zeromq;

import java.nio.channels.Selector;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiFunction;

/**
 * A background task with a pipe to it, as JeroMQ 0.6.0's {@code ZStar} (ZActor's engine): the constructor forks a
 * thread ({@link ZThread#fork}) that plays a {@link Fortune}'s shows, and this object is the caller's {@link ZAgent}
 * on the pipe.
 *
 * <h2>Lifecycle, on the task's thread</h2>
 * An {@link Entourage}'s {@code breakaleg}, then the fortune's {@code premiere} (which names the thread through the
 * {@link Set}); then shows: the fortune {@code create}s a {@link Star}, which is {@code prepare}d, then
 * {@code breathe}s (waits for events), {@code act}s and {@code entract}s in a loop until one of them returns false or
 * the set {@code fire}s (the thread is interrupted, by default); a star that {@code renews} plays again. Then the
 * fortune's {@code interview}: if true, the lock word goes down the pipe and locks the agent; the fortune's and the
 * entourage's {@code party}; the task's context is closed (and the context the star made itself, if it was given
 * none). {@link #exit()} is released last.
 *
 * <p>Closing the caller's context ends the task: its waits throw ETERM, which ends the shows, and the rest above
 * still runs, so {@link Exit#await()} returns. Different from JeroMQ: the constructor's {@code agent} function is
 * {@link java.util.function.BiFunction} (JeroMQ's own {@code zmq.util.function.BiFunction} is an internal type);
 * lambdas and method references compile unchanged.
 */
public class ZStar implements ZAgent {
    /** One show of the task: the loop its thread runs between creation and the end. */
    public interface Star {
        /** Called once before the loop (registers the pipe and sockets in a poller, usually). */
        void prepare();

        /** Waits for events; returns their number, or -1 when the task should stop. */
        int breathe();

        /** Handles what {@link #breathe} found; false stops the loop. */
        boolean act(int events);

        /** Called after each {@link #act}; false stops the loop. */
        boolean entract();

        /** Called after the loop; true plays a new show (a new star from the fortune). */
        boolean renews();
    }

    /** Something with a last word on the task's thread, before its context is closed. */
    public interface TimeTaker {
        /** Called last on the task's thread, with its context still open. */
        void party(ZContext ctx);
    }

    /** Sleeps for {@code time} {@code unit}s: a fortune's usual party. */
    public static void party(long time, TimeUnit unit) {
        ZMQ.sleep(time, unit);
    }

    /** What the task plays: names it, makes its stars, and says the last word. */
    public interface Fortune extends TimeTaker {
        /** Called first on the task's thread; returns the thread's name (null: a default name). */
        String premiere(ZMQ.Socket mic, Object... args);

        /**
         * As {@link #create(ZContext, ZMQ.Socket, int, Star, Object...)}; the selector is not used.
         *
         * @deprecated as in JeroMQ 0.6.0
         */
        @Deprecated
        default Star create(ZContext ctx, ZMQ.Socket mic, Selector sel, int count, Star previous, Object... args) {
            return create(ctx, mic, count, previous, args);
        }

        /**
         * The star of show number {@code count} (0 first).
         *
         * @param ctx      the task's context (a shadow of the caller's)
         * @param mic      the task's end of the pipe
         * @param previous the star of the show before, or null
         * @param args     the arguments given to the ZStar
         */
        Star create(ZContext ctx, ZMQ.Socket mic, int count, Star previous, Object... args);

        /** Called when the shows are over; true sends the lock word down the pipe, locking the caller's agent. */
        boolean interview(ZMQ.Socket mic);
    }

    /** Waits for the task's end. */
    public interface Exit {
        /** Waits for the end; an interrupt stops the wait and stays set on the thread. */
        void awaitSilent();

        /** Waits for the end. */
        void await() throws InterruptedException;

        /** Waits up to {@code timeout} for the end; whether it came. */
        boolean await(long timeout, TimeUnit unit) throws InterruptedException;

        /** Whether the task has ended, its context closed. */
        boolean isExited();
    }

    /** The stage: names the thread and tells when to stop. */
    public interface Set {
        /** Called with the name {@link Fortune#premiere} gave (or null) and the star's number. */
        void lights(String name, int id);

        /** Whether the show must stop now. */
        boolean fire();
    }

    /** Names the thread ("Star-N" without a name) and stops the show when the thread is interrupted. */
    public static class SimpleSet implements Set {
        @Override
        public boolean fire() {
            return Thread.currentThread().isInterrupted();
        }

        @Override
        public void lights(String name, int id) {
            Thread.currentThread().setName(name == null ? createDefaultName("Star-%d", id) : name);
        }

        /** {@code format} with {@code id}. */
        public static String createDefaultName(final String format, final int id) {
            return String.format(format, id);
        }
    }

    /** Who comes with the star: called before the premiere and at the party. */
    public interface Entourage extends TimeTaker {
        /** Called first on the task's thread. */
        void breakaleg(ZContext ctx, Fortune fortune, ZMQ.Socket phone, Object... bags);
    }

    /** Numbers the stars for their default names. */
    private static final AtomicInteger SHOWS = new AtomicInteger();

    private final ZAgent agent;
    private final Plateau plateau = new Plateau();

    /**
     * @deprecated as in JeroMQ 0.6.0; the selector is not used
     */
    @Deprecated
    public ZStar(SelectorCreator selector, Fortune fortune, String motdelafin, Object... bags) {
        this(fortune, motdelafin, bags);
    }

    /** A star with a context of its own, closed when it ends; see the other constructor. */
    public ZStar(final Fortune fortune, String motdelafin, final Object... bags) {
        this((ZContext) null, fortune, motdelafin, bags);
    }

    /**
     * @deprecated as in JeroMQ 0.6.0; the selector is not used
     */
    @Deprecated
    public ZStar(final ZContext context, final SelectorCreator selector, final Fortune fortune, String motdelafin,
            final Object... bags) {
        this(context, fortune, ZAgent.Creator::create, motdelafin, bags);
    }

    /** A star with the default agent; see the other constructor. */
    public ZStar(final ZContext context, final Fortune fortune, String motdelafin, final Object... bags) {
        this(context, fortune, ZAgent.Creator::create, motdelafin, bags);
    }

    /**
     * @deprecated as in JeroMQ 0.6.0; the selector is not used
     */
    @Deprecated
    public ZStar(final ZContext context, final SelectorCreator selector, final Fortune fortune,
            BiFunction<ZMQ.Socket, String, ZAgent> agent, String motdelafin, final Object... bags) {
        this(context, fortune, agent, motdelafin, bags);
    }

    /**
     * Starts the task.
     *
     * @param context    the context whose shadow the task runs in; null for one of its own, closed at its end
     * @param fortune    what the task plays
     * @param agent      makes the caller's agent from the pipe and the lock word
     * @param motdelafin the lock word the task sends when it ends (if its fortune's interview says so), or null
     * @param bags       arguments for the fortune; a {@link Set} or an {@link Entourage} among them is used as such
     */
    public ZStar(final ZContext context, final Fortune fortune, BiFunction<ZMQ.Socket, String, ZAgent> agent,
            String motdelafin, final Object... bags) {
        Objects.requireNonNull(agent, "Agent creator has to be supplied");
        Objects.requireNonNull(fortune, "Fortune has to be supplied");
        ZContext own = context == null ? new ZContext() : null;
        Set set = null;
        Entourage entourage = null;
        for (Object bag : bags) {
            if (bag instanceof Set) {
                set = (Set) bag;
            }
            if (bag instanceof Entourage) {
                entourage = (Entourage) bag;
            }
        }
        Cast cast = new Cast(set == null ? new SimpleSet() : set, fortune, own, entourage, motdelafin, bags);
        ZMQ.Socket phone = ZThread.fork(context == null ? own : context, plateau, cast);
        this.agent = agent.apply(phone, motdelafin);
    }

    /**
     * Makes the caller's agent.
     *
     * @deprecated as in JeroMQ 0.6.0: pass an agent function to the constructor
     */
    @Deprecated
    protected ZAgent agent(ZMQ.Socket phone, String secret) {
        return ZAgent.Creator.create(phone, secret);
    }

    /** The caller's agent on the pipe. */
    public ZAgent agent() {
        return agent;
    }

    /** Waits for the task's end. */
    public Exit exit() {
        return plateau;
    }

    /** What the task's thread needs, handed over as ZThread's one argument. */
    private static final class Cast {
        final Set set;
        final Fortune fortune;
        final ZContext own;
        final Entourage entourage;
        final String lockWord;
        final Object[] bags;

        Cast(Set set, Fortune fortune, ZContext own, Entourage entourage, String lockWord, Object[] bags) {
            this.set = set;
            this.fortune = fortune;
            this.own = own;
            this.entourage = entourage;
            this.lockWord = lockWord;
            this.bags = bags;
        }
    }

    /** The task's thread: the lifecycle of the class comment. */
    private static final class Plateau implements ZThread.IAttachedRunnable, Exit {
        private final CountDownLatch ended = new CountDownLatch(1);

        @Override
        public void run(Object[] args, ZContext ctx, ZMQ.Socket mic) {
            Cast cast = (Cast) args[0];
            try {
                if (cast.entourage != null) {
                    cast.entourage.breakaleg(ctx, cast.fortune, mic, cast.bags);
                }
                try {
                    cast.set.lights(cast.fortune.premiere(mic, cast.bags), SHOWS.incrementAndGet());
                    play(ctx, cast, mic);
                } finally {
                    curtain(ctx, cast, mic);
                }
            } finally {
                ended.countDown();
            }
        }

        private static void play(ZContext ctx, Cast cast, ZMQ.Socket mic) {
            int shows = 0;
            Star star = null;
            do {
                star = cast.fortune.create(ctx, mic, shows++, star, cast.bags);
                star.prepare();
                while (!cast.set.fire() && star.act(star.breathe()) && star.entract()) {
                    // The star's turns: each of the three calls above is one step of it.
                }
            } while (star.renews());
        }

        private static void curtain(ZContext ctx, Cast cast, ZMQ.Socket mic) {
            try {
                if (cast.fortune.interview(mic) && cast.lockWord != null) {
                    sendQuietly(mic, cast.lockWord);
                }
                cast.fortune.party(ctx);
                if (cast.entourage != null) {
                    cast.entourage.party(ctx);
                }
            } finally {
                ctx.close();
                if (cast.own != null) {
                    cast.own.close();
                }
            }
        }

        /** The lock word, unless the context is closed already (then the agent is locked by ETERM). */
        private static void sendQuietly(ZMQ.Socket mic, String word) {
            try {
                mic.send(word);
            } catch (ZMQException closed) {
                // Nobody is left to tell.
            }
        }

        @Override
        public void awaitSilent() {
            try {
                ended.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }

        @Override
        public void await() throws InterruptedException {
            ended.await();
        }

        @Override
        public boolean await(long timeout, TimeUnit unit) throws InterruptedException {
            return ended.await(timeout, unit);
        }

        @Override
        public boolean isExited() {
            return ended.getCount() == 0;
        }
    }

    @Override
    public ZMsg recv() {
        return agent.recv();
    }

    @Override
    public ZMsg recv(int timeout) {
        return agent.recv(timeout);
    }

    @Override
    public ZMsg recv(boolean wait) {
        return agent.recv(wait);
    }

    @Override
    public boolean send(ZMsg message) {
        return agent.send(message);
    }

    @Override
    public boolean send(ZMsg msg, boolean destroy) {
        return agent.send(msg, destroy);
    }

    @Override
    public boolean send(String word) {
        return agent.send(word);
    }

    @Override
    public boolean send(String word, boolean more) {
        return agent.send(word, more);
    }

    @Override
    public ZMQ.Socket pipe() {
        return agent.pipe();
    }

    @Override
    public boolean sign() {
        return agent.sign();
    }

    @Override
    public void close() {
        agent.close();
    }
}
