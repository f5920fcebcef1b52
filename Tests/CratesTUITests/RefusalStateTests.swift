import CratesCore
import CratesTestSupport
import Testing
@testable import CratesTUI

/// A refused scan in a wedge burst: it stays in sight until a person's key, rings the bell,
/// and is kept in the session's list of refusals (`!`); a long reason wraps.
@Suite struct RefusalStateTests {
    static let misread = "5029141777639"  // check digit should be 8
    static let good = "5017066907438"

    @Test("a refused scan stays on screen while the scans after it go on")
    func aRefusalOutlivesTheNextScan() {
        var h = Harness()
        h.type(Self.misread.map { Key.character($0) } + [.enter], interval: 0.01)
        let next = h.type(Self.good.map { Key.character($0) } + [.enter], from: 200, interval: 0.01)
        #expect(next.contains(.session(.add(.barcode(Fixtures.gtin(Self.good)), method: .wedge))))
        #expect(h.lines.contains { $0.contains("Refused \(Self.misread)") && $0.contains("check digit") })
        // The next key a person presses puts it away.
        h.type([.character("j")], from: 300)
        #expect(!h.lines.contains { $0.contains("Refused \(Self.misread)") })
    }

    @Test("a refusal's whole reason is on screen, wrapped at the edge rather than cut")
    func aLongReasonWraps() {
        var h = Harness(width: 40, height: 24)
        h.type(Self.misread.map { Key.character($0) } + [.enter], interval: 0.01)
        let shown = h.lines.joined(separator: " ").split(separator: " ").joined(separator: " ")
        #expect(shown.contains("check digit should be 8"))
    }
}

extension RefusalStateTests {
    @Test("a refusal rings the bell; ! lists the session's refusals, newest first; Esc goes back")
    func theSessionsRefusals() {
        var h = Harness()
        #expect(h.type(Self.misread.map { Key.character($0) } + [.enter], interval: 0.01) == [.bell])
        h.type("2012345678903".map { Key.character($0) } + [.enter], from: 200, interval: 0.01)
        h.type([.escape], from: 300)  // the prompt closed: a camera's scan is taken at once
        #expect(h.send(.scan("https://example.com/x", method: .camera)) == [.bell])
        #expect(h.state.refusals.map(\.code) == [Self.misread, "2012345678903", "https://example.com/x"])
        h.type([.character("!")], from: 301)
        #expect(h.state.mode == .refusals(scroll: 0))
        #expect(h.lines[0].hasPrefix(" crates · scans refused this session (3)"))
        let listed = h.lines.filter { $0.hasPrefix(" Refused ") }
        #expect(listed.count == 3 && listed[0].contains("https://example.com/x") && listed[2].contains(Self.misread), "\(h.lines)")
        // The key is in the help.
        h.type([.character("?")], from: 302)
        #expect(HelpText.lines(width: 80).contains { $0.text.hasPrefix("  ! ") && $0.text.contains("refused") })
        h.type([.escape], from: 303)
        h.type([.character("!")], from: 304)
        h.type([.escape], from: 305)
        #expect(h.state.mode == .list)
    }

    @Test("an empty list of refusals says so")
    func noRefusals() {
        var h = Harness()
        h.type([.character("!")])
        #expect(h.lines[1].contains("No scan has been refused in this session."))
    }
}
