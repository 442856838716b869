import Logging

/// A log handler that escapes control characters in each message (see `TerminalText`)
/// before the wrapped handler writes it.
public struct EscapingLogHandler: LogHandler {
    public var wrapped: any LogHandler

    public init(wrapped: any LogHandler) {
        self.wrapped = wrapped
    }

    public func log(event: LogEvent) {
        var event = event
        event.message = "\(TerminalText.escaped(event.message.description))"
        wrapped.log(event: event)
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { wrapped[metadataKey: key] }
        set { wrapped[metadataKey: key] = newValue }
    }

    public var metadata: Logger.Metadata {
        get { wrapped.metadata }
        set { wrapped.metadata = newValue }
    }

    public var logLevel: Logger.Level {
        get { wrapped.logLevel }
        set { wrapped.logLevel = newValue }
    }
}
