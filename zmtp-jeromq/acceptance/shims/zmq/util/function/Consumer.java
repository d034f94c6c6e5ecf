package zmq.util.function;

/** Test shim: JeroMQ's own consumer type. */
@FunctionalInterface
public interface Consumer<T> {
    void accept(T t);
}
