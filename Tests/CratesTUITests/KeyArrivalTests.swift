import CratesCore
import Testing

@testable import CratesTUI

/// The times keys are stamped with: the time a key was read, unless it had been seen
/// waiting in the terminal earlier, when it came by then.
@Suite("TUI: when a key came")
struct KeyArrivalTests {
    @Test("keys read as they come are stamped with the time they were read")
    func keysReadAsTheyCome() {
        var arrival = KeyArrival()
        #expect(arrival.stamp(readAt: 10.0, waiting: 0) == 10.0)
        #expect(arrival.stamp(readAt: 10.2, waiting: 0) == 10.2)
        #expect(arrival.stamp(readAt: 11.5, waiting: 0) == 11.5)
    }

    @Test("a burst read slowly keeps the time it was first seen waiting; what comes later keeps its own")
    func aBurstReadSlowly() {
        var arrival = KeyArrival()
        // 14 keys came at once; the UI reads one each 60 ms (a busy machine).
        #expect(arrival.stamp(readAt: 10.0, waiting: 13) == 10.0)
        for n in 1...13 {
            #expect(arrival.stamp(readAt: 10.0 + 0.06 * Double(n), waiting: 13 - n) == 10.0)
        }
        // Waiting for the next key: it is read as it comes.
        #expect(arrival.stamp(readAt: 12.0, waiting: 0) == 12.0)

        // Two keys waiting at 20.0; three more came while the first was handled.
        var later = KeyArrival()
        #expect(later.stamp(readAt: 20.0, waiting: 2) == 20.0)
        #expect(later.stamp(readAt: 20.5, waiting: 4) == 20.0)
        #expect(later.stamp(readAt: 20.6, waiting: 3) == 20.0)
        #expect(later.stamp(readAt: 20.7, waiting: 2) == 20.5)
        #expect(later.stamp(readAt: 20.8, waiting: 1) == 20.5)
        #expect(later.stamp(readAt: 20.9, waiting: 0) == 20.5)
        #expect(later.stamp(readAt: 21.0, waiting: 0) == 21.0)
    }

    @Test("a key of several bytes (an arrow's escape sequence) takes the oldest bytes with it")
    func aKeyOfSeveralBytes() {
        var arrival = KeyArrival()
        // An arrow (3 bytes) and a digit waiting at 5.0; a digit more came by 5.3.
        #expect(arrival.stamp(readAt: 5.0, waiting: 4) == 5.0)  // the first key
        #expect(arrival.stamp(readAt: 5.1, waiting: 2) == 5.0)  // the arrow: 3 bytes gone at once
        #expect(arrival.stamp(readAt: 5.3, waiting: 2) == 5.0)  // a digit; one more came by 5.3
        #expect(arrival.stamp(readAt: 5.4, waiting: 1) == 5.0)
        #expect(arrival.stamp(readAt: 5.5, waiting: 0) == 5.3)
        // Input read behind the UI's back (the sign-in prompt): what is no longer waiting is forgotten.
        #expect(arrival.stamp(readAt: 6.0, waiting: 5) == 6.0)
        #expect(arrival.stamp(readAt: 9.0, waiting: 0) == 6.0)
        #expect(arrival.stamp(readAt: 9.5, waiting: 0) == 9.5)
    }

    @Test("a wedge burst read by a busy UI, a key each 60 ms, is still a wedge scan; stamped as read, it looked typed")
    func aBurstReadByABusyUIIsAWedgeScan() {
        let burst = "5029141777638\r"
        func methods(stampedByArrival: Bool) -> [AddMethod] {
            var h = Harness()
            var arrival = KeyArrival()
            var waiting = burst.count
            for (n, c) in burst.enumerated() {
                waiting -= 1
                let read = 100.0 + 0.06 * Double(n)
                let at = stampedByArrival ? arrival.stamp(readAt: read, waiting: waiting) : read
                h.send(.key(c == "\r" ? .enter : .character(c), at: at))
            }
            return h.commands.compactMap { $0.addedBarcode?.1 }
        }
        #expect(methods(stampedByArrival: true) == [.wedge])
        #expect(methods(stampedByArrival: false) == [.typed])
    }
}
