package io.zmtp.jeromq.guide;

import io.netty.buffer.ByteBufAllocator;

/** A program that drops a buffer unreleased: what {@link LeakReportingIT} expects the child-JVM harness to catch. */
public final class LeakingProgram {
    private LeakingProgram() {}

    public static void main(String[] args) {
        ByteBufAllocator.DEFAULT.buffer(64).writeLong(42);
        System.out.println("dropped a buffer");
    }
}
