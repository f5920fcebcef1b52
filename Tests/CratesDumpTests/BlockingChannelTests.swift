import Testing

@testable import CratesDump

/// The queue between the reader's stages holds what waits, and nothing already handed over:
/// what bounds the build's memory whatever the dump's size.
@Suite struct BlockingChannelTests {
    final class Item: Sendable {}

    @Test("an item received is no longer referenced by the channel")
    func releasesReceived() {
        let channel = BlockingChannel<Item>(capacity: 4)
        weak var first: Item?
        do {
            let item = Item()
            first = item
            channel.send(item)
            channel.send(Item())
            _ = channel.receive()
        }
        #expect(first == nil)
        // Many more through it: still nothing kept.
        weak var later: Item?
        for n in 0..<200 {
            let item = Item()
            if n == 100 { later = item }
            channel.send(item)
            _ = channel.receive()
        }
        #expect(later == nil)
    }

    @Test("finish ends the receiving after what was sent; cancel ends both ways")
    func finishAndCancel() {
        let channel = BlockingChannel<Int>(capacity: 2)
        channel.send(1)
        channel.finish()
        #expect(channel.receive() == 1)
        #expect(channel.receive() == nil)
        let other = BlockingChannel<Int>(capacity: 1)
        other.send(1)
        other.cancel()
        #expect(other.send(2) == false)
        #expect(other.receive() == nil)
    }
}
