import CratesApp

// crates' exit statuses (the README's table), decided here from what the use cases say,
// and nowhere else: CratesApp says how its work ended; which number a shell sees is the
// command line's. A status of 128 + n says that signal n stopped the work, as a shell
// would report it (130 for Ctrl-C).

extension SyncError {
    /// 3: not signed in, refused, or signed in as someone else; 4: Discogs unreachable, or
    /// a trouble that may pass (a listing that did not add up); 1: anything else.
    var exitStatus: Int32 {
        switch self {
        case .notSignedIn, .refused, .otherAccount: 3
        case .unreachable, .incompleteListing: 4
        case .folder, .other: 1
        }
    }
}

extension SyncReport {
    /// The failure's status; else 5 when Discogs refused to add a copy (the rest synced, but
    /// a script must not read that as done); else 0.
    var exitStatus: Int32 { failure?.exitStatus ?? (refusedAdds.isEmpty ? 0 : 5) }
}

extension RecordCheck.Tally {
    /// 4 when a code was unknown for want of Discogs, else 2 when a code was refused, else
    /// none (0).
    var exitStatus: Int32? {
        if unreachable > 0 { return 4 }
        if refused > 0 { return 2 }
        return nil
    }
}

extension CoverError {
    /// `crates cover`'s exit status for it.
    var exitStatus: Int32 {
        switch self {
        case .noSuchRecord, .notMatched, .collection: 1
        case .noCover, .notAnImage, .tooLarge: 2
        case .notSignedIn: 3
        case .unreachable: 4
        case .budgetReached: 5
        // EX_CANTCREAT (sysexits(3)): a file crates keeps cannot be made; not 1, which says
        // the record is not there.
        case .cache: 73
        }
    }
}

extension ReleaseFinderError {
    /// 3: not signed in or refused; 4: unreachable, or Discogs answered with an error.
    var exitStatus: Int32 {
        switch self {
        case .access: 3
        case .discogs(.unauthorized): 3
        case .discogs: 4
        }
    }
}

extension DiscogsAnswerError {
    /// 1: not a record's code; 2: no such release; 3: not signed in or refused; 4:
    /// unreachable or Discogs' error.
    var exitStatus: Int32 {
        switch self {
        case .notARecord: 1
        case .noSuchRelease: 2
        case .access, .notInCatalogue: 3
        case .discogs(.unauthorized): 3
        case .discogs: 4
        }
    }
}

extension CollectionValuation.Outcome {
    /// 0: every figure asked; 1: the collection could not be read or written; 3: not
    /// signed in, or refused; 4: Discogs could not be reached, or failed past its retries;
    /// 128 + n: stopped by signal n.
    func exitStatus(stoppedBy stop: StopRequest?) -> Int32 {
        switch ending {
        case .complete: 0
        case .collectionFailed: 1
        case .refused: 3
        case .unreachable: 4
        case .stopped: stop?.exitStatus ?? 130
        }
    }
}

extension Refresh.Outcome {
    /// 0: every record looked up; 1: an id not in the collection, or entered by hand; 3:
    /// some lookup did not finish.
    var exitStatus: Int32 {
        switch ending {
        case .complete: 0
        case .notLookedUp: 1
        case .unfinished: 3
        }
    }
}

extension Importer.Outcome {
    /// 0; 2: lines refused; 3: release rows not added; 4: the lookups stopped before the
    /// end; 5: lookups failed, their records wait in the queue; 128 + n: stopped by signal n.
    func exitStatus(stoppedBy stop: StopRequest) -> Int32 {
        switch ending {
        case .complete: 0
        case .interrupted: stop.exitStatus
        case .linesRefused: 2
        case .releasesNotAdded: 3
        case .lookupsStopped: 4
        case .lookupsFailed: 5
        }
    }
}

extension ImportRun.Outcome {
    /// The import's status (`Importer.Outcome`'s); 2: lines refused (a dry run that found
    /// some, or `--strict`); 128 + n: stopped by signal n; else `printed` (74: the summary
    /// could not be printed) when the import ended well.
    func exitStatus(stoppedBy stop: StopRequest, printed: Int32) -> Int32 {
        switch self {
        case .restored: 0
        case .planned(_, _, let linesRefused): linesRefused ? 2 : 0
        case .refused: 2
        case .stopped: stop.exitStatus
        case .imported(let outcome, _):
            switch outcome.exitStatus(stoppedBy: stop) {
            case 0: printed
            case let status: status
            }
        }
    }
}

extension CatalogueUpdate.Failure {
    /// 128 + n: stopped by signal n (130 when the transfer was cut otherwise), the part
    /// downloaded kept; 1: anything else.
    func exitStatus(stoppedBy stop: StopRequest) -> Int32 {
        isStopped ? stop.exitStatus : 1
    }
}
