import CratesApp
import CratesCore
import CratesStore
import CratesTestSupport
import Foundation
import Testing

/// The loans view's answer, from a real store: the copies lent and not back, by borrower.
@Suite("CollectionSession: the loans")
struct LoanSessionTests {
    @Test("loadLoans lists the copies out, by borrower, the longest out first; a copy returned is not listed")
    func copiesOutByBorrower() async throws {
        let temporary = try TemporaryStore()
        let store = temporary.store
        var ids: [Int64] = []
        for code in ["5099750442227", "5029141777638", "5017066907438"] {
            ids.append(try await store.add(NewRecord(gtin: Fixtures.gtin(code), addMethod: .typed)).id)
        }
        _ = try await store.edit(ids[0], RecordEdit(loan: .set(Loan(to: "Tom", since: "2026-11-01"))))
        _ = try await store.edit(ids[1], RecordEdit(loan: .set(Loan(to: "anna", since: "2026-11-20"))))
        _ = try await store.edit(ids[2], RecordEdit(loan: .set(Loan(to: "Anna", since: "2026-10-02", returned: "2026-11-02"))))
        let log = EventLog()
        let session = CollectionSession(store: store, discogs: nil, lookups: false, scanner: nil, post: log.post)
        try await running(session) {
            session.perform(.loadLoans)
            let loans = try await log.first("the loans") { if case .loans(let listings) = $0 { listings } else { nil } }
            #expect(loans.map(\.recordID) == [ids[1], ids[0]])
            #expect(loans.map(\.loan.to) == ["anna", "Tom"])
            #expect(loans.first?.title.contains("777638") == true)
        }
    }
}
