import CratesCore
import CratesNet
import CratesStore
import Foundation
import Synchronization

/// Pressings and their details: the person's choice, a details fetch ahead of the queue,
/// and the searches without a barcode (the catalogue as they type, Discogs on Enter).
extension CollectionSession {
    /// The person chose a pressing: as a search found it, else as the catalogue has it,
    /// else fetched in full; then the record is matched to it (its own values kept).
    ///
    /// A choice is the person's word, kept even when the release cannot be fetched now
    /// (Discogs unreachable, or the UI quit before the answer came): the record is queued
    /// with the release pinned, and its lookup fetches that release when Discogs answers.
    func choose(_ releaseID: Int, for recordID: Int64) async {
        guard discogs != nil || catalogue != nil else {
            post(.notSignedIn(need: nil))
            return
        }
        do {
            let (release, edition) = try await finder.sourcedRelease(releaseID, pauses: RequestRetry.choicePauses)
            try await store.choose(release, for: recordID, from: edition)
        } catch ReleaseFinderError.discogs(let error) where error.isTransient || error.isCancellation {
            // A task of its own: this one may be cancelled (quitting), and the write must go.
            let store = self.store
            let queued = await Task { try await store.queueChoice(releaseID, for: recordID) }.result
            guard !error.isCancellation else { return }
            switch queued {
            case .success:
                post(.message("\(error.description): the choice is kept, and release \(releaseID) is fetched when Discogs answers", isError: true))
                nudgeWorker()
            case .failure(let failure):
                post(.message("\(failure)", isError: true))
            }
        } catch let failure as ReleaseFinderError {
            post(failure.isNotSignedIn ? .notSignedIn(need: nil) : .message(failure.description, isError: true))
        } catch {
            post(.message("\(error)", isError: true))
        }
    }

    /// The person opened the details of a record whose release was completed from a search
    /// result: its full details (tracklist, credits, identifiers, notes) are fetched at
    /// once, ahead of the lookup queue, kept, and the details shown again. Quietly nothing
    /// when not signed in or when Discogs cannot give them now (the background fetches will).
    func fetchDetails(_ releaseID: Int, for recordID: Int64) async {
        guard let client = discogs?.client, startFetching(releaseID) else { return }
        defer { state.withLock { _ = $0.fetchingDetails.remove(releaseID) } }
        do {
            let release = try await client.release(id: releaseID, priority: .interactive)
            try await store.storeDetails(release)
            if let details = try await store.details(recordID) {
                post(.details(details))
                postMarks(Self.listedReleases(details))
            }
        } catch {
            SessionLog.warning("details of release \(releaseID): \(error)")
        }
    }

    /// False when the release's details are being fetched already.
    func startFetching(_ releaseID: Int) -> Bool {
        state.withLock { $0.fetchingDetails.insert(releaseID).inserted }
    }

    /// The search as typed so far, in the catalogue alone: what it has goes back to the UI
    /// at once (an empty answer too: the form says Enter asks Discogs).
    func searchCatalogue(_ query: ReleaseSearchQuery, for recordID: Int64?) async {
        guard let catalogue else { return }
        let found = await finder.searchCatalogue(query)
        post(.found(ReleaseSearchAnswer(
            recordID: recordID, query: query, candidates: found?.hits.map(\.candidate) ?? [], requests: 0,
            isComplete: found?.isComplete ?? true, catalogue: catalogue.edition, preview: true)))
    }

    /// A search without a barcode: its candidates, or why there are none, go back to the UI.
    func search(_ query: ReleaseSearchQuery, for recordID: Int64?) async {
        do {
            let found = try await finder.search(query)
            post(.found(ReleaseSearchAnswer(
                recordID: recordID, query: query, candidates: found.hits.map(\.candidate), requests: found.requests,
                isComplete: found.isComplete, catalogue: found.edition)))
            postMarks(found.hits.map(\.candidate.releaseID))
        } catch {
            let notSignedIn = error.isNotSignedIn
            post(.found(ReleaseSearchAnswer(
                recordID: recordID, query: query, candidates: [], requests: 0, failure: notSignedIn ? nil : error.description,
                notSignedIn: notSignedIn)))
        }
    }

    /// The releases a record's details list: its own, and its pressings to choose from.
    static func listedReleases(_ details: RecordDetails) -> [Int] {
        (details.release.map { [$0.id] } ?? []) + details.record.candidates.map(\.releaseID)
    }

    /// What the collection holds of releases just listed (owned, where, wanted), for the
    /// picker's and the details' marks: read off the serial line, posted when read.
    func postMarks(_ releaseIDs: [Int]) {
        guard !releaseIDs.isEmpty else { return }
        let store = self.store
        let post = self.post
        spawn {
            if let marks = try? await store.releaseMarks(releaseIDs) { post(.marks(marks)) }
        }
    }
}
