import CratesCore
import Foundation
import Testing

@testable import CratesTUI

/// The edit form's fields for what was paid and the loan: shown as stored, sent as
/// `crates edit` sends them, and a value refused in the form with what it takes.
@Suite struct PersonalFieldsStateTests {
    /// A harness with the edit form of record 1 open: paid 12.50 GBP at a fair, never lent.
    static func editing(purchase: Purchase = Purchase(price: Decimal(string: "12.5"), currency: "GBP", from: "Spitalfields fair"),
                        loan: Loan? = nil, height: Int = 24) -> Harness {
        var h = Harness(height: height)
        h.type([.character("e")])
        var details = AppStateTests.details(id: 1, state: .matched, release: SnapshotTests.release)
        details.record.purchase = purchase
        details.record.loan = loan
        h.send(.details(details))
        return h
    }

    /// Tab to the field `key` of the open form.
    static func focus(_ key: FormState.Key, _ h: inout Harness) {
        guard case .form(let form) = h.state.mode, let index = form.fields.firstIndex(where: { $0.key == key }) else {
            Issue.record("no field \(key)")
            return
        }
        let steps = (index - form.focused + form.fields.count) % form.fields.count
        h.type(Array(repeating: Key.tab, count: steps))
    }

    static func form(_ h: Harness) -> FormState? {
        if case .form(let form) = h.state.mode { return form }
        return nil
    }

    @Test func theFormShowsWhatWasPaidAndTheLoan() {
        var h = Self.editing(loan: Loan(to: "Anna", since: "2026-11-01"))
        let form = Self.form(h)
        #expect(form?.text(.paid) == "12.50" && form?.text(.currency) == "GBP" && form?.text(.boughtFrom) == "Spitalfields fair")
        #expect(form?.text(.lentTo) == "Anna" && form?.text(.lentOn) == "2026-11-01" && form?.text(.returned) == nil)
        // At 24 rows every field scrolls into view with the cursor, and says it stays here.
        Self.focus(.returned, &h)
        #expect(h.screen.text.contains("Returned on"))
        #expect(h.screen.text.contains("Lent to        Anna"))
        #expect(h.screen.text.contains("kept here only"))
    }

    @Test func changedPartsAndALoanAreSent() {
        var h = Self.editing()
        Self.focus(.currency, &h)
        h.type([.control("u")])
        h.type("eur")
        Self.focus(.bought, &h)
        h.type("2026-11-20")
        Self.focus(.lentTo, &h)
        h.type("Anna")
        h.type([.tab])
        h.type("2026-11-21")
        let sent = h.type([.enter])
        var edit = RecordEdit()
        edit.purchase = PurchaseChange(currency: .set("EUR"), date: .set("2026-11-20"))
        edit.loan = .set(Loan(to: "Anna", since: "2026-11-21"))
        #expect(sent == [.session(.edit(1, edit))])
        #expect(h.state.mode == .list)
    }

    @Test func aReturnAndAnEmptiedPriceAreSent() {
        var h = Self.editing(loan: Loan(to: "Anna", since: "2026-11-01"))
        Self.focus(.paid, &h)
        h.type([.control("u")])
        Self.focus(.returned, &h)
        h.type("2026-11-25")
        let sent = h.type([.enter])
        var edit = RecordEdit()
        edit.purchase = PurchaseChange(price: .clear)
        edit.loan = .set(Loan(to: "Anna", since: "2026-11-01", returned: "2026-11-25"))
        #expect(sent == [.session(.edit(1, edit))])
    }

    @Test func emptyingTheLoanRemovesIt() {
        var h = Self.editing(loan: Loan(to: "Anna", since: "2026-11-01"))
        Self.focus(.lentTo, &h)
        h.type([.control("u"), .tab, .control("u")])
        var edit = RecordEdit()
        edit.loan = .clear
        #expect(h.type([.enter]) == [.session(.edit(1, edit))])
    }

    @Test func aCurrencyCratesDoesNotKnowIsRefusedWithWhatItTakes() {
        var h = Self.editing()
        Self.focus(.currency, &h)
        h.type([.control("u")])
        h.type("XYZ")
        Self.focus(.artist, &h)
        #expect(h.type([.enter]).isEmpty)
        let form = Self.form(h)
        #expect(form?.error == "Currency “XYZ”: no currency crates knows; give an ISO 4217 code, such as GBP, EUR or USD")
        // The cursor goes to the field refused, and the whole message shows (wrapped at 80).
        #expect(form.map { $0.fields[$0.focused].key } == .currency)
        let text = h.screen.text
        #expect(text.contains("no currency crates knows; give an ISO 4217 code, such as GBP,") && text.contains("EUR or USD"))
    }

    @Test func aPriceOrADayThatIsNoneIsRefused() {
        var h = Self.editing()
        Self.focus(.paid, &h)
        h.type([.control("u")])
        h.type("12,50 quid")
        #expect(h.type([.enter]).isEmpty)
        #expect(Self.form(h)?.error == "Paid “12,50 quid”: not an amount; give digits with at most 4 decimals, such as 12.50")
        h.type([.control("u")])
        h.type("12.50")
        Self.focus(.bought, &h)
        h.type("2026-02-30")
        #expect(h.type([.enter]).isEmpty)
        #expect(Self.form(h)?.error == "Bought on “2026-02-30”: not a day; give one as YYYY-MM-DD, such as 2026-11-20")
        #expect(Self.form(h).map { $0.fields[$0.focused].key } == .bought)
    }

    @Test func aLoanWithoutAName_orBackBeforeItLeft_isRefused() {
        var h = Self.editing()
        Self.focus(.lentOn, &h)
        h.type("2026-11-20")
        #expect(h.type([.enter]).isEmpty)
        #expect(Self.form(h)?.error?.hasPrefix("Lent to: give the name of whom it is lent to") == true)
        Self.focus(.lentTo, &h)
        h.type("Anna")
        Self.focus(.returned, &h)
        h.type("2026-11-19")
        #expect(h.type([.enter]).isEmpty)
        #expect(Self.form(h)?.error == "Returned on: 2026-11-19 is before the day it was lent, 2026-11-20")
    }
}
