package zmq.util.function;

/** Test shim: JeroMQ's own two-argument function type. */
@FunctionalInterface
public interface BiFunction<T, U, R> {
    R apply(T t, U u);
}
