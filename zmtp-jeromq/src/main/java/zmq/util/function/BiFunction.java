package zmq.util.function;

/**
 * JeroMQ's two-argument function, the type of {@code ZPoller}'s handler functions. It extends
 * {@link java.util.function.BiFunction}, so a variable of this type also goes where the standard one is taken
 * ({@code ZStar}'s agent function); lambdas and method references fit both.
 *
 * @param <T> the first argument's type
 * @param <U> the second argument's type
 * @param <R> the result's type
 */
@FunctionalInterface
public interface BiFunction<T, U, R> extends java.util.function.BiFunction<T, U, R> {
    @Override
    R apply(T t, U u);
}
