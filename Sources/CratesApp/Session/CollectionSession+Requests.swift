import CratesCore
import CratesNet
import CratesStore
import Foundation
import Synchronization

/// Each `SessionRequest`, carried out in order on the session's executor; what waits for
/// Discogs or runs long goes on a task of its own (`spawn`).
extension CollectionSession {
    func execute(_ request: SessionRequest) async {
        do {
            switch request {
            case .add(.label(let code), _, _):
                try await scanned(code)
            case .add(let entry, let method, let allowing):
                // The place is the one current now, in the order of the requests: a record
                // scanned right after a place's label goes in that place.
                let location = context.location
                if case .release = entry {
                    // A release waits for Discogs (and its rate limit): off the serial line,
                    // so that list queries and scans are not held up behind it.
                    spawn { await self.add(entry, method: method, allowing: allowing, into: location) }
                } else {
                    await add(entry, method: method, allowing: allowing, into: location)
                }
            case .query(let query):
                state.withLock { $0.observation }?.update(query)
            case .focus(let id):
                state.withLock { $0.observation }?.focus(id)
            case .delete(let ids):
                let (count, token) = try await undo.delete(ids)
                post(.deleted(count: count, undo: token))
                let gone = Self.gone(asked: ids, done: count, "deleted")
                if !gone.isEmpty { post(.message("Deleted \(counted(count, "record")): u to undo\(gone)", isError: false)) }
            case .undo(let token):
                switch try await undo.undo(token) {
                case .restored(let count): post(.restored(count: count))
                case .movedBack(let count): post(.message("Moved \(counted(count, "record")) back", isError: false))
                case .edited(let record):
                    post(.message("Edit undone: \(record.subject)", isError: false))
                    if let details = try await store.details(record.id) { post(.details(details)) }
                case .editedBack(let count):
                    post(.message("Edit undone on \(counted(count, "record"))", isError: false))
                case nil: break
                }
            case .loadDetails(let id):
                if let details = try await store.details(id) {
                    post(.details(details))
                    postMarks(Self.listedReleases(details))
                    if let release = details.release, !release.hasFullDetails {
                        spawn { await self.fetchDetails(release.id, for: id) }
                    }
                } else {
                    post(.message("That record is gone", isError: true))
                }
            case .retry(let id):
                try await store.retry([id])
                nudgeWorker()
            case .choose(let recordID, let releaseID):
                spawn { await self.choose(releaseID, for: recordID) }
            case .openURL(let url):
                openInBrowser(url)
            case .openPage(let id):
                if let url = try await store.details(id)?.release?.url {
                    openInBrowser(url)
                } else {
                    post(.message("No Discogs page yet: the record is not matched", isError: true))
                }
            case .loadGenres:
                post(.genres(try await store.genreSections()))
            case .grade(let recordID, let change):
                try await grade(recordID, change)
            case .sync:
                startSync()
            case .syncAsPlanned:
                startSync(asPlanned: true)
            case .removeFromDiscogs(let instanceIDs):
                startRemoval(instanceIDs)
            case .signIn(let request):
                signIn(request)
            case .loadSyncConflicts:
                post(.syncConflicts(try await store.syncConflicts()))
            case .settleConflicts(let recordIDs, let side):
                startSettling(recordIDs, toward: side)
            case .cover(let request):
                if let covers {
                    covers.ask(request)
                } else {
                    post(.cover(request, .placeholder("covers are off")))
                }
            case .search(let query, let recordID):
                // Waits for Discogs: off the serial line, as an add by release.
                spawn { await self.search(query, for: recordID) }
            case .searchCatalogue(let query, let recordID):
                // A keystroke's: the catalogue only, never a request. On the serial line, so
                // the answers come back in the order typed.
                await searchCatalogue(query, for: recordID)
            case .enterByHand(let fields, let recordID):
                try await enterByHand(fields, for: recordID, into: context.location)
            case .edit(let id, let edit):
                let (record, token) = try await undo.edit(id, edit)
                if let token {
                    post(.edited(text: "Saved \(record.subject): \(edit.summary)", undo: token))
                } else {
                    post(.message("Nothing changed", isError: false))
                }
                if let details = try await store.details(id) { post(.details(details)) }
            case .loadNeedsPerson:
                post(.needsPerson(try await store.needingAPerson()))
            case .move(let ids, let to):
                var location: Location?
                if let to { location = try await existingLocation(to) }
                let (count, token) = try await undo.move(ids, to: to)
                post(.moved(count: count, to: location, undo: token))
                let gone = Self.gone(asked: ids, done: count, "moved")
                if !gone.isEmpty {
                    let place = location.map { "to \($0.name)" } ?? "out of their place"
                    post(.message("Moved \(counted(count, "record")) \(place): u to undo\(gone)", isError: false))
                }
            case .setLocation(let id):
                let location = try await context.set(id)
                if id != nil, location == nil { post(.message("That place is gone", isError: true)) }
                post(.location(location))
            case .loadLocations:
                post(.locations(try await store.locationTree()))
            case .loadStatistics:
                // Off the serial line: a scan meanwhile is added at once.
                spawn { await self.loadStatistics() }
            case .loadLoans:
                post(.loans(try await loans()))
            case .check(let reference):
                check(reference)
            case .addBought(let releaseID, let gtin, let recheck):
                spawn { await self.addBought(releaseID, gtin: gtin, recheck: recheck) }
            case .want(let request, let recheck):
                await want(request, recheck: recheck)
            case .refreshPrices(let releaseIDs, let recheck):
                refreshPrices(releaseIDs, recheck: recheck)
            case .tagShown, .tagCopy, .gradeRecords, .refresh, .exportRecords:
                try await executeTagRequest(request)
            }
        } catch {
            post(.message("\(error)", isError: true))
        }
    }

    /// The copies out on loan, by borrower: few, so each is read as the details read it.
    func loans() async throws -> [LoanListing] {
        var listings: [LoanListing] = []
        for id in try await store.recordIDs(matching: try RecordQuery(parsing: "lent:")) {
            guard let details = try await store.details(id), let loan = details.record.loan, loan.isOut else { continue }
            listings.append(LoanListing(recordID: id, title: details.displayTitle, loan: loan))
        }
        return LoanListing.ordered(listings)
    }

    /// The statistics screen's numbers in two answers: the totals and the genres first,
    /// which fill the first screen in tens of milliseconds, then the other charts (hundreds,
    /// at 100,000 records) with the value charts in the currency `crates value` shows.
    func loadStatistics() async {
        do {
            post(.statistics(try await store.statistics(dimensions: [.genre])))
            var rest = try await store.statistics(dimensions: StatisticsDimension.allCases.filter { $0 != .genre }, placeless: true)
            let currency = try await CollectionValuation.currency(
                asked: nil, configured: ConfigurationFile.current().currency, store: store)
            rest.value = try await store.valueCharts(currency: currency.code, accountCurrency: currency.accountCurrency)
            post(.statistics(rest))
        } catch {
            post(.message("\(error)", isError: true))
        }
    }

    func add(
        _ entry: CodeEntry, method: AddMethod, allowing: AddAllowance, into location: Location?, known given: Release? = nil
    ) async {
        // A release a search found is added as found, without fetching it again.
        var known = given
        if known == nil, case .release(let id) = entry { known = finder.knownRelease(id) }
        do {
            switch try await RecordAdder(store: store, discogs: discogs).add(
                entry, method: method, allowing: allowing, into: location, known: known)
            {
            case .added(let record, let release):
                post(.added(recordID: record.id))
                state.withLock { _ = $0.recentAdds.insert(record.id) }
                // Said once the record is stored: the UI said only "Adding …".
                let onDiscogs = try await onDiscogsText(release: release, gtin: record.gtin)
                let added = release.map { "Added \($0.displayPressing)" }
                    ?? "Added \(record.subject)" + (location.map { " to \($0.name)" } ?? "")
                post(.message(added + (onDiscogs.map { ": \($0)" } ?? ""), isError: false))
                nudgeWorker()
                // A barcode the catalogue names one release of is that release already.
                var named = release
                if named == nil, let gtin = record.gtin, let found = try? await catalogue?.releases(barcode: gtin), found.count == 1 {
                    named = found.first
                }
                await offerUnwant(named)
            case .held(let question):
                if case .moveHere(let move) = question.kind, move.from == nil {
                    // Shelving: a copy in no place goes into the current one at once (undo
                    // puts it back); only a copy in another place is asked about.
                    let (count, token) = try await undo.move([move.recordID], to: move.to.id)
                    post(.moved(count: count, to: move.to, undo: token))
                    post(.message("Put \(move.title) in \(move.to.name): u to undo", isError: false))
                } else {
                    post(.ask(question))
                }
            case .refused(let reason), .unavailable(let reason):
                post(.message(reason, isError: true))
            }
        } catch {
            post(.message("\(error)", isError: true))
        }
    }

    /// A crates label: a place's changes the current place, a copy's selects it (and, with a
    /// place current, shelves it there).
    func scanned(_ code: LabelCode) async throws(StoreError) {
        switch try await context.scan(code) {
        case .entered(let location):
            post(.location(location))
        case .unchanged:
            break  // the same place again changes nothing
        case .left(let message):
            post(.location(nil))
            post(.message(message, isError: true))
        case .select(let record):
            post(.select(recordID: record.id))
            // With a place current, the copy's own label shelves it there (undo puts it back):
            // a record without a barcode is shelved by scanning its sticker.
            if let place = context.location, record.location?.id != place.id {
                let (count, token) = try await undo.move([record.id], to: place.id)
                post(.moved(count: count, to: place, undo: token))
                let from = record.location.map { " from \($0.name)" } ?? ""
                post(.message("Put \(record.subject)\(from) in \(place.name): u to undo", isError: false))
            }
        case .noSuchCopy(let message):
            post(.message(message, isError: true))
        }
    }

    /// Opens `url` in a browser, or says there is none here (no display, or nothing to open
    /// it with), with the address to open elsewhere.
    func openInBrowser(_ url: String) {
        if ExternalPrograms.openInBrowser(url) {
            post(.message("Opened \(url)", isError: false))
        } else {
            post(.message("No browser here; the page is \(url)", isError: false))
        }
    }

    func existingLocation(_ id: Int64) async throws(StoreError) -> Location {
        guard let location = try await store.location(id) else { throw .location(.unknownID(id)) }
        return location
    }


    /// A record entered by hand: a new one (into the current place), or the record named
    /// (its barcode and place kept).
    func enterByHand(_ fields: RecordFields, for recordID: Int64?, into location: Location?) async throws {
        if let recordID {
            let record = try await store.enterByHand(recordID, fields)
            post(.message("Entered by hand: \(record.collector.description)", isError: false))
            return
        }
        // The person typed it in full: another copy is what they mean.
        if case .added(let record) = try await RecordAdder(store: store, discogs: discogs).addByHand(
            fields, anotherCopy: true, into: location)
        {
            post(.added(recordID: record.id))
            post(.message("Entered by hand: \(fields.description)", isError: false))
        }
    }

    /// The queue's length for the status line, read after each change (an indexed count).
    func refreshWaiting() {
        let store = self.store
        let post = self.post
        spawn {
            if let waiting = try? await store.waitingCount() { post(.waiting(waiting)) }
        }
    }
}
