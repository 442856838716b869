import Foundation

/// A flag a test server's handler reads while the test flips it: the server answers normally
/// until `isFailing` is set, then fails.
public final class FaultSwitch: @unchecked Sendable {
    private let lock = NSLock()
    private var failing = false

    public init() {}

    public var isFailing: Bool {
        get { lock.withLock { failing } }
        set { lock.withLock { failing = newValue } }
    }
}
