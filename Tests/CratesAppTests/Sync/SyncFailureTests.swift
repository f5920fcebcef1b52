import Foundation
import Testing

@testable import CratesApp

/// A sync that fails for a reason of the system (a full disk writing a file) says so in
/// crates' words, never Foundation's "The operation could not be completed".
@Suite struct SyncFailureTests {
    @Test func aSystemErrorIsSaidInCratesWords() {
        let failure = SyncError.from(CocoaError(.fileWriteOutOfSpace))
        #expect(failure == .other("the disk is full"))
        #expect(!failure.description.contains("NSCocoaErrorDomain") && !failure.description.contains("could not be completed"))
    }
}
