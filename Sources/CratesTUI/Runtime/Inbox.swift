import Synchronization

/// Where workers post events for the UI thread: any thread may post; only the UI loop drains.
public final class Inbox: Sendable {
    private let events = Mutex<[AppEvent]>([])

    public init() {}

    public func post(_ event: AppEvent) {
        events.withLock { $0.append(event) }
    }

    /// Everything posted since the last drain, oldest first.
    public func drain() -> [AppEvent] {
        events.withLock { pending in
            defer { pending.removeAll(keepingCapacity: true) }
            return pending
        }
    }
}
