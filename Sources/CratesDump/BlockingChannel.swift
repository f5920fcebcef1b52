import Foundation

/// A bounded queue between two threads: `send` waits while it is full, `receive` while it is
/// empty. What bounds the reader's memory whatever the dump's size: at most `capacity` items
/// wait between one stage and the next.
///
/// `@unchecked Sendable`: every stored property is read and written under `condition`.
final class BlockingChannel<Item: Sendable>: @unchecked Sendable {
    private let condition = NSCondition()
    private var items: [Item] = []
    private var finished = false
    private var cancelled = false
    private let capacity: Int

    init(capacity: Int) {
        self.capacity = max(1, capacity)
    }

    /// Waits for room, then queues `item`; false when the channel was cancelled (the receiver
    /// gave up: stop producing).
    @discardableResult
    func send(_ item: Item) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while items.count >= capacity, !cancelled { condition.wait() }
        guard !cancelled else { return false }
        items.append(item)
        condition.broadcast()
        return true
    }

    /// The next item, waiting for one; nil once the sender finished and all were received,
    /// or when the channel was cancelled.
    func receive() -> Item? {
        condition.lock()
        defer { condition.unlock() }
        while items.isEmpty, !finished, !cancelled { condition.wait() }
        guard !cancelled, !items.isEmpty else { return nil }
        // Removed, not only passed: an item received must not stay referenced here (a
        // megabyte of dump, thousands of releases).
        let item = items.removeFirst()
        condition.broadcast()
        return item
    }

    /// No more items will come.
    func finish() {
        condition.lock()
        finished = true
        condition.broadcast()
        condition.unlock()
    }

    /// Ends the channel both ways: waiting senders and receivers return at once.
    func cancel() {
        condition.lock()
        cancelled = true
        items.removeAll()
        condition.broadcast()
        condition.unlock()
    }
}
