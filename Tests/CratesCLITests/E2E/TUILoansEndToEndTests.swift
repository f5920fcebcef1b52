import CratesCore
import CratesStore
import CratesTestSupport
import Foundation
import Testing

/// What was paid and the loans, in the collection UI under tmux: B lists who has which
/// record; the edit form refuses a currency crates does not know and marks a copy returned.
@Suite("TUI end to end: the loans and the edit form's personal fields", .serialized, .processTimeLimit)
struct TUILoansEndToEndTests {
    @Test("B says who has Rumours since when; e refuses XYZ as a currency; a return typed in the form empties the loans")
    func loansAndTheEditForm() async throws {
        let sandbox = try CommandSandbox()
        let store = try sandbox.openStore()
        try await TUIListEndToEndTests.seed(store)
        _ = try await store.edit(3, RecordEdit(loan: .set(Loan(to: "Anna", since: "2026-11-20"))))
        let tmux = try await sandbox.sandbox.start(width: 100, height: 24)
        try await tmux.waitFor(text: "crates · by artist")

        try await tmux.type("B")
        try await tmux.waitFor("the loans view with its loan") { lines in
            lines.contains { $0.contains("1 copy out with 1 person") }
                && lines.contains { $0.contains("Anna") && $0.contains("2026-11-20") && $0.contains("Fleetwood Mac — Rumours") }
        }

        // The copy's details, then its edit form: Currency is the 11th field.
        try await tmux.press("Enter")
        try await tmux.waitFor(text: "Loan")
        try await tmux.type("e")
        try await tmux.waitFor(text: "Edit the record")
        for _ in 0..<10 { try await tmux.press("Tab") }
        try await tmux.type("XYZ")
        try await tmux.press("Enter")
        try await tmux.waitFor(text: "Currency “XYZ”: no currency crates knows")
        #expect(try await store.record(3)?.purchase.currency == nil, "nothing saved")

        // Emptied again, and Returned on (five fields further) typed: saved as the return.
        try await tmux.press("C-u")
        for _ in 0..<5 { try await tmux.press("Tab") }
        try await tmux.type("2026-11-25")
        try await tmux.press("Enter")
        try await waitUntil("the return saved") { try await store.record(3)?.loan?.returned == "2026-11-25" }
        #expect(try await store.record(3)?.loan == Loan(to: "Anna", since: "2026-11-20", returned: "2026-11-25"))

        try await tmux.press("Escape")
        try await tmux.type("B")
        try await tmux.waitFor(text: "Nothing is out on loan.")
        try await tmux.press("Escape", "q")
        #expect(try await tmux.exitReport().status == 0)
    }
}
