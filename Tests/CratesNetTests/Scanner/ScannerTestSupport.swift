import CratesCore
import CratesTestSupport
import Foundation
import Testing

@testable import CratesNet

#if canImport(Glibc)
    import Glibc
#endif

/// Messages a client reported, collected from its thread; tests wait on it with a deadline
/// without blocking the cooperative pool.
final class MessageLog: Sendable {
    private let messages = LockBox<[ScanMessage]>()

    func append(_ message: ScanMessage) { messages.append(message) }

    var all: [ScanMessage] { messages.all }

    var events: [ScanEvent] {
        all.compactMap { if case .event(let e) = $0 { e } else { nil } }
    }

    var dropped: [ScanLineError] {
        all.compactMap { if case .dropped(let e) = $0 { e } else { nil } }
    }

    /// Waits until `condition` holds over the messages, at most `deadline`; the messages then.
    @discardableResult
    func wait(
        _ what: String, deadline: Duration = defaultWaitDeadline, until condition: ([ScanMessage]) -> Bool
    ) async throws -> [ScanMessage] {
        try await waitFor(what, within: deadline, every: .milliseconds(5), lastSeen: { "\(self.all)" }) {
            let snapshot = all
            return condition(snapshot) ? snapshot : nil
        }
    }
}

extension ScanEvent {
    static func test(_ data: String, _ symbology: ScanSymbology = .ean13) -> ScanEvent {
        ScanEvent(symbology: symbology, data: data, at: Date(timeIntervalSince1970: 1_795_341_600))
    }
}
