import CratesCore
import Foundation
import Testing

/// A loan as the edit form gives it, whole, and the refusals' words without an option's name.
@Suite struct LoanFormCheckTests {
    static let names = (to: "lentTo", since: "lentOn", returned: "returned")
    static let now = Date(timeIntervalSince1970: 1_795_000_000)  // 2026-11-18

    @Test func aNameAndDaysMakeTheLoan() throws {
        #expect(try LoanChange.checked(to: " Anna ", since: "2026-11-01", returned: "", names: Self.names, now: Self.now)
            == .set(Loan(to: "Anna", since: "2026-11-01")))
        #expect(try LoanChange.checked(to: "Anna", since: "", returned: "2026-11-20", names: Self.names, now: Self.now)
            == .set(Loan(to: "Anna", since: DayText.today(Self.now), returned: "2026-11-20")))
        #expect(try LoanChange.checked(to: "", since: " ", returned: "", names: Self.names, now: Self.now) == .clear)
    }

    @Test func refusalsNameTheFieldAndSayWhatItTakes() {
        #expect(throws: PurchaseLoanError.text("lentTo", "give the name of whom it is lent to (empty every loan field to remove the loan)")) {
            try LoanChange.checked(to: "", since: "2026-11-01", returned: "", names: Self.names, now: Self.now)
        }
        #expect(throws: PurchaseLoanError.day("lentOn", "2026-02-30")) {
            try LoanChange.checked(to: "Anna", since: "2026-02-30", returned: "", names: Self.names, now: Self.now)
        }
        #expect(throws: PurchaseLoanError.text("returned", "2026-10-01 is before the day it was lent, 2026-11-01")) {
            try LoanChange.checked(to: "Anna", since: "2026-11-01", returned: "2026-10-01", names: Self.names, now: Self.now)
        }
        // The option's words for `crates edit` are as before; the form takes the reason alone.
        #expect(PurchaseLoanError.currency("XYZ").description
            == "--currency XYZ: no currency crates knows; give an ISO 4217 code, such as GBP, EUR or USD")
        #expect(PurchaseLoanError.currency("XYZ").reason == "no currency crates knows; give an ISO 4217 code, such as GBP, EUR or USD")
        #expect(PurchaseLoanError.price("12,5").description
            == "--paid 12,5: not an amount; give digits with at most 4 decimals, such as 12.50 ('' clears it)")
        #expect(PurchaseLoanError.day("bought", "x").shown == "x" && PurchaseLoanError.text("a", "b").shown == nil)
    }
}
