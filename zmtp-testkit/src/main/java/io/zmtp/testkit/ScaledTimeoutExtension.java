package io.zmtp.testkit;

import java.lang.reflect.Method;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.InvocationInterceptor;
import org.junit.jupiter.api.extension.ReflectiveInvocationContext;
import org.junit.platform.commons.support.AnnotationSupport;

/**
 * Enforces every {@link Timeout @Timeout} with its duration times {@link TestTimeouts#scale()}, so that the hang
 * guards grow with the deadlines inside the tests on a slow machine.
 *
 * <p>JUnit's own enforcement is off ({@code junit.jupiter.execution.timeout.mode=disabled} in the
 * {@code junit-platform.properties} shipped in this jar): its durations are compile-time constants, and it has no
 * factor of its own. This extension is registered, like {@link LeakCheckExtension}, through {@code META-INF/services}
 * for every module with zmtp-testkit on its test classpath, and follows JUnit's rules: a method's own {@code @Timeout}
 * applies to it (a test or a lifecycle method); a class's, to its test, test template and test factory methods and
 * those of its nested classes. In the same thread (the default), the test's thread is interrupted when the time is up
 * and the test fails with a {@link TimeoutException}; in {@code SEPARATE_THREAD} mode the test runs in a thread of its
 * own, which is interrupted and left behind when the time is up. Either way every thread's stack is printed first: what a hang in CI
 * was waiting on, which the failure alone doesn't say.
 */
public final class ScaledTimeoutExtension implements InvocationInterceptor {

    private static final AtomicInteger SEPARATE_THREADS = new AtomicInteger();
    private static final ScheduledExecutorService INTERRUPTER = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "zmtp-test-timeout");
        t.setDaemon(true);
        return t;
    });

    @Override
    public void interceptTestMethod(Invocation<Void> invocation, ReflectiveInvocationContext<Method> call,
            ExtensionContext context) throws Throwable {
        proceed(invocation, testableTimeout(call, context), call);
    }

    @Override
    public void interceptTestTemplateMethod(Invocation<Void> invocation, ReflectiveInvocationContext<Method> call,
            ExtensionContext context) throws Throwable {
        proceed(invocation, testableTimeout(call, context), call);
    }

    @Override
    public <T> T interceptTestFactoryMethod(Invocation<T> invocation, ReflectiveInvocationContext<Method> call,
            ExtensionContext context) throws Throwable {
        return proceed(invocation, testableTimeout(call, context), call);
    }

    @Override
    public void interceptBeforeAllMethod(Invocation<Void> invocation, ReflectiveInvocationContext<Method> call,
            ExtensionContext context) throws Throwable {
        proceed(invocation, ownTimeout(call), call);
    }

    @Override
    public void interceptBeforeEachMethod(Invocation<Void> invocation, ReflectiveInvocationContext<Method> call,
            ExtensionContext context) throws Throwable {
        proceed(invocation, ownTimeout(call), call);
    }

    @Override
    public void interceptAfterEachMethod(Invocation<Void> invocation, ReflectiveInvocationContext<Method> call,
            ExtensionContext context) throws Throwable {
        proceed(invocation, ownTimeout(call), call);
    }

    @Override
    public void interceptAfterAllMethod(Invocation<Void> invocation, ReflectiveInvocationContext<Method> call,
            ExtensionContext context) throws Throwable {
        proceed(invocation, ownTimeout(call), call);
    }

    private static Optional<Timeout> ownTimeout(ReflectiveInvocationContext<Method> call) {
        return AnnotationSupport.findAnnotation(call.getExecutable(), Timeout.class);
    }

    /** The method's own, else its class's, else an enclosing class's (for a @Nested class's methods). */
    private static Optional<Timeout> testableTimeout(ReflectiveInvocationContext<Method> call,
            ExtensionContext context) {
        Optional<Timeout> own = ownTimeout(call);
        if (own.isPresent()) {
            return own;
        }
        for (Optional<ExtensionContext> c = Optional.of(context); c.isPresent(); c = c.get().getParent()) {
            Optional<Class<?>> testClass = c.get().getTestClass();
            if (testClass.isPresent()) {
                Optional<Timeout> onClass = AnnotationSupport.findAnnotation(testClass.get(), Timeout.class);
                if (onClass.isPresent()) {
                    return onClass;
                }
            }
        }
        return Optional.empty();
    }

    static Duration scaled(Timeout timeout) {
        return TestTimeouts.scaled(Duration.ofNanos(timeout.unit().toNanos(timeout.value())));
    }

    private static <T> T proceed(Invocation<T> invocation, Optional<Timeout> timeout,
            ReflectiveInvocationContext<Method> call) throws Throwable {
        if (timeout.isEmpty() || timeout.get().value() <= 0) {
            return invocation.proceed();
        }
        Duration limit = scaled(timeout.get());
        String what = call.getExecutable().getDeclaringClass().getName() + "." + call.getExecutable().getName();
        if (timeout.get().threadMode() == Timeout.ThreadMode.SEPARATE_THREAD) {
            return inSeparateThread(invocation, limit, what);
        }
        return inSameThread(invocation, limit, what);
    }

    private static <T> T inSameThread(Invocation<T> invocation, Duration limit, String what) throws Throwable {
        Thread testThread = Thread.currentThread();
        AtomicBoolean interrupted = new AtomicBoolean();
        ScheduledFuture<?> interrupt = INTERRUPTER.schedule(() -> {
            printThreads(testThread, what, limit);
            interrupted.set(true);
            testThread.interrupt();
        }, limit.toNanos(), TimeUnit.NANOSECONDS);
        Throwable failure = null;
        T result = null;
        try {
            result = invocation.proceed();
        } catch (Throwable t) {
            failure = t;
        } finally {
            if (!interrupt.cancel(false)) {
                // The interrupt has run or is running: wait for it, so that it can't land after this method returns.
                try {
                    interrupt.get();
                } catch (ExecutionException | InterruptedException e) {
                    // It only prints and interrupts; what matters is that it has finished.
                }
            }
        }
        if (interrupted.get()) {
            Thread.interrupted();
            throw timedOut(what, limit, failure);
        }
        if (failure != null) {
            throw failure;
        }
        return result;
    }

    private static <T> T inSeparateThread(Invocation<T> invocation, Duration limit, String what) throws Throwable {
        CompletableFuture<T> done = new CompletableFuture<>();
        Thread runner = new Thread(() -> {
            try {
                done.complete(invocation.proceed());
            } catch (Throwable t) {
                done.completeExceptionally(t);
            }
        }, "zmtp-test-timeout-" + SEPARATE_THREADS.incrementAndGet());
        runner.setDaemon(true);
        runner.start();
        try {
            return done.get(limit.toNanos(), TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            printThreads(runner, what, limit);
            runner.interrupt();
            throw timedOut(what, limit, null);
        } catch (ExecutionException e) {
            throw e.getCause();
        }
    }

    private static TimeoutException timedOut(String what, Duration limit, Throwable failure) {
        String scale = TestTimeouts.scale() == 1 ? "" : " (@Timeout times " + TestTimeouts.SCALE_PROPERTY + "="
                + TestTimeouts.scale() + ")";
        TimeoutException e = new TimeoutException(what + " timed out after " + limit + scale);
        if (failure != null) {
            e.addSuppressed(failure);
        }
        return e;
    }

    private static void printThreads(Thread testThread, String what, Duration limit) {
        StringBuilder out = new StringBuilder();
        out.append(what).append(" ran past its @Timeout of ").append(limit)
                .append("; thread ").append(testThread.getName()).append(" will be interrupted")
                .append(". Every thread's stack:\n");
        for (Map.Entry<Thread, StackTraceElement[]> e : Thread.getAllStackTraces().entrySet()) {
            Thread t = e.getKey();
            out.append('\n').append('"').append(t.getName()).append('"').append(t.isDaemon() ? " daemon" : "")
                    .append(' ').append(t.getState()).append('\n');
            for (StackTraceElement frame : e.getValue()) {
                out.append("\tat ").append(frame).append('\n');
            }
        }
        System.err.println(out);
    }
}
