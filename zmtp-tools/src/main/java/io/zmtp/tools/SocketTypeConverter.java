package io.zmtp.tools;

import io.zmtp.codec.ZmtpSocketType;
import picocli.CommandLine;

/** A {@code --type} value: a socket type's name, in any case. */
public final class SocketTypeConverter implements CommandLine.ITypeConverter<ZmtpSocketType> {
    @Override
    public ZmtpSocketType convert(String value) {
        try {
            return ZmtpSocketType.parse(value);
        } catch (IllegalArgumentException e) {
            throw new CommandLine.TypeConversionException("not a socket type: " + value);
        }
    }
}
