import CratesCore
import CratesNet
import CratesStore
import Foundation

/// Check mode and the wantlist in the collection UI: codes checked without adding anything
/// (`RecordCheck`, as `crates check`), a checked release bought or wanted, prices asked.
extension CollectionSession {
    /// The check of this session: the catalogue, the collection, the wantlist and the
    /// price cache; Discogs only for a code the catalogue does not know.
    var recordCheck: RecordCheck {
        RecordCheck(store: store, catalogue: catalogue, makeAccess: { [weak self] in self?.discogs })
    }

    var wantlist: Wantlist {
        Wantlist(store: store, catalogue: catalogue, makeAccess: { [weak self] in self?.discogs })
    }

    /// Checks a code, off the serial line: a burst of scans is answered in parallel, each
    /// by its serial.
    func check(_ reference: CheckReference) {
        let check = recordCheck
        let post = self.post
        spawn { post(.checked(serial: reference.serial, await check.check(reference.entry, shown: reference.code))) }
    }

    /// A checked release bought: a copy added (another copy is what the person means),
    /// from the catalogue's release when it has it (no request), else Discogs'; offline and
    /// unknown to the catalogue, the copy is added by its barcode with the release pinned,
    /// matched when Discogs answers.
    func addBought(_ releaseID: Int, gtin: GTIN?, recheck: CheckReference?) async {
        let location = context.location
        let known = try? await catalogue?.release(id: releaseID)
        let allowing: AddAllowance = [.anotherCopy, .notARecord]
        if known == nil, discogs?.signedIn != true, let gtin {
            do {
                if case .added(let record, _) = try await RecordAdder(store: store, discogs: discogs).add(
                    .barcode(gtin), method: .typed, allowing: allowing, into: location)
                {
                    try await store.queueChoice(releaseID, for: record.id)
                    post(.added(recordID: record.id))
                    post(.message("Added \(gtin.canonical) as release \(releaseID): it is matched when Discogs answers", isError: false))
                }
            } catch {
                post(.message("\(error)", isError: true))
            }
        } else {
            await add(.release(releaseID), method: .typed, allowing: allowing, into: location, known: known)
        }
        if let recheck { check(recheck) }
    }

    /// After a copy of `release` is added: when it is on the wantlist, the person is asked
    /// whether to take it off.
    func offerUnwant(_ release: Release?) async {
        guard let release, let want = try? await store.want(release.id) else { return }
        post(.syncQuestion(SyncQuestion(
            text: "\(ControlCharacters.cleaned(want.displayTitle)) is on your wantlist: take it off?",
            yes: .want(.remove(releaseID: release.id), recheck: nil), declined: "Kept on the wantlist")))
    }

    func want(_ request: WantRequest, recheck: CheckReference?) async {
        let wantlist = self.wantlist
        do {
            switch request {
            case .load:
                break
            case .add(let release):
                switch try await wantlist.add(release) {
                case .added(let want): post(.message("Wanted: \(ControlCharacters.cleaned(want.displayTitle))", isError: false))
                case .already(let want): post(.message("Already on the wantlist: \(ControlCharacters.cleaned(want.displayTitle))", isError: false))
                }
            case .addCode(let code):
                switch try await wantlist.add(code) {
                case .success(.added(let want)): post(.message("Wanted: \(ControlCharacters.cleaned(want.displayTitle))", isError: false))
                case .success(.already(let want)):
                    post(.message("Already on the wantlist: \(ControlCharacters.cleaned(want.displayTitle))", isError: false))
                case .failure(let failure): post(.message(failure.description, isError: true))
                }
            case .remove(let releaseID):
                if let gone = try await store.removeWant(releaseID) {
                    post(.message("Off the wantlist: \(ControlCharacters.cleaned(gone.displayTitle))", isError: false))
                } else {
                    post(.message("Not on the wantlist", isError: false))
                }
            case .removeTagged(let releaseIDs):
                var removed = 0
                for releaseID in releaseIDs where try await store.removeWant(releaseID) != nil { removed += 1 }
                let missing = releaseIDs.count - removed
                post(.message(
                    "Off the wantlist: \(counted(removed, "release"))" + (missing > 0 ? "; \(missing) were not on it any more" : ""),
                    isError: false))
            case .rate(let releaseID, let rating):
                _ = try await store.editWant(releaseID, notes: nil, rating: rating)
            case .refreshPrices:
                let ids = try await store.wants().map(\.releaseID)
                refreshPrices(ids, recheck: nil)
            }
            post(.wantlist(try await wantlist.list()))
        } catch {
            post(.message("\(error)", isError: true))
        }
        if let recheck { check(recheck) }
    }

    /// Asks Discogs' marketplace for these releases now, at background priority, then shows
    /// the figures (the wantlist again, the code checked again).
    func refreshPrices(_ releaseIDs: [Int], recheck: CheckReference?) {
        guard let access = discogs, access.signedIn else {
            post(.notSignedIn(need: "Prices need Discogs"))
            return
        }
        let store = self.store
        let post = self.post
        let wantlist = self.wantlist
        spawn {
            post(.message("Asking Discogs for \(counted(releaseIDs.count, "price"))…", isError: false))
            let outcome = await WantlistPrices(store: store, access: access).refresh(releases: releaseIDs)
            if outcome.ending == .complete {
                post(.message("Prices asked: \(counted(releaseIDs.count, "release"))", isError: false))
            } else {
                post(.message(outcome.messages.joined(separator: "; "), isError: true))
            }
            if let list = try? await wantlist.list() { post(.wantlist(list)) }
            if let recheck { self.check(recheck) }
        }
    }
}
