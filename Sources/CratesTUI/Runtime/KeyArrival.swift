/// When each key came, as closely as the UI can tell, for telling a wedge scanner's burst
/// from typing (`AppState.wedgeKeyInterval`).
///
/// The UI reads keys one at a time and handles each before reading the next. Stamped with
/// the time it is read, a key that had long been waiting looks as late as the UI was slow:
/// a burst read while the machine is busy (another program, a write to the collection)
/// looked typed. So after each read the UI says how many bytes are still waiting in the
/// terminal: they came no later than that moment, and the keys made of them are stamped
/// with it when their turn comes.
struct KeyArrival {
    /// Bytes known to be waiting, oldest first, each run with the time it was first seen.
    private var runs: [(bytes: Int, seenAt: Double)] = []

    /// The stamp of a key read at `now`, after which `waiting` bytes are still to be read.
    mutating func stamp(readAt now: Double, waiting: Int) -> Double {
        let stamp: Double
        if let oldest = runs.first {
            // The key was among the bytes seen waiting: it came by then.
            stamp = oldest.seenAt
            take(1)
        } else {
            stamp = now
        }
        // Reconcile with what is waiting now. More: the new bytes came by now. Fewer: the key
        // was longer than one byte (an escape sequence, UTF-8), or the terminal dropped
        // input; the bytes gone are the oldest.
        let known = runs.reduce(0) { $0 + $1.bytes }
        if waiting > known {
            runs.append((waiting - known, now))
        } else if waiting < known {
            take(known - waiting)
        }
        return stamp
    }

    /// Forgets `count` bytes, the oldest first.
    private mutating func take(_ count: Int) {
        var left = count
        while left > 0, !runs.isEmpty {
            let used = min(left, runs[0].bytes)
            runs[0].bytes -= used
            left -= used
            if runs[0].bytes == 0 { runs.removeFirst() }
        }
    }
}
