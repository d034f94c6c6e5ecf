package org.zeromq;

import java.io.File;
import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.util.ArrayList;
import java.util.List;

/**
 * JeroMQ 0.6.0 itself, loaded from the jars the build copies to {@code target/jeromq-0.6.0} into a class loader of
 * its own (its classes have the names of ours), and called by reflection. Missing jars fail the test with how to get
 * them: a compatibility test never skips.
 */
final class RealJeromq {
    private static final ClassLoader LOADER = loader();

    private RealJeromq() {
    }

    private static ClassLoader loader() {
        String dir = System.getProperty("jeromq.jars", "target/jeromq-0.6.0");
        File[] jars = new File(dir).listFiles((d, name) -> name.endsWith(".jar"));
        if (jars == null || jars.length < 2) {
            throw new IllegalStateException("JeroMQ 0.6.0 and jnacl jars not found in " + dir + ": run the tests"
                    + " through Maven (zmtp-jeromq's pom copies them in process-test-resources)");
        }
        List<URL> urls = new ArrayList<>();
        for (File jar : jars) {
            try {
                urls.add(jar.toURI().toURL());
            } catch (MalformedURLException e) {
                throw new IllegalStateException(e);
            }
        }
        // Parent: the platform loader, so that org.zeromq comes from JeroMQ's jar, never from our classes.
        return new URLClassLoader(urls.toArray(new URL[0]), ClassLoader.getPlatformClassLoader());
    }

    static Class<?> type(String name) {
        try {
            return Class.forName(name, true, LOADER);
        } catch (ClassNotFoundException e) {
            throw new IllegalStateException(e);
        }
    }

    /** A new JeroMQ object of class {@code name}; the constructor is chosen by the argument types given. */
    static Object create(String name, Class<?>[] types, Object... args) {
        try {
            Constructor<?> constructor = type(name).getConstructor(types);
            return constructor.newInstance(args);
        } catch (InvocationTargetException e) {
            throw rethrow(e);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Calls {@code method} on {@code target} (a JeroMQ object, or a JeroMQ class for a static method). */
    static Object call(Object target, String method, Class<?>[] types, Object... args) {
        Class<?> type = target instanceof Class ? (Class<?>) target : target.getClass();
        try {
            Method m = type.getMethod(method, types);
            return m.invoke(target instanceof Class ? null : target, args);
        } catch (InvocationTargetException e) {
            throw rethrow(e);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
    }

    private static RuntimeException rethrow(InvocationTargetException e) {
        Throwable cause = e.getCause();
        if (cause instanceof RuntimeException) {
            return (RuntimeException) cause;
        }
        return new IllegalStateException(cause);
    }

    static Class<?>[] types(Class<?>... types) {
        return types;
    }
}
