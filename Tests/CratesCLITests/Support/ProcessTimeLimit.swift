import Testing

extension Trait where Self == TimeLimitTrait {
    /// Every test of a suite that runs crates as a process: a hang (a child that never
    /// exits, a tmux that never answers) fails that test within minutes, with its name,
    /// rather than the whole run at `make test`'s limit (25 minutes). Five minutes is far
    /// above any such test's time on a loaded 2-core machine, and a hang costs no more than
    /// that: a limit of twenty cost twenty minutes of the run for one hung test.
    static var processTimeLimit: Self { .timeLimit(.minutes(5)) }

    /// The suites that import and list a million lines in bounded memory, alone: their
    /// tests took up to 587 s on a loaded 2-core machine, so they keep twenty minutes.
    static var memoryProcessTimeLimit: Self { .timeLimit(.minutes(20)) }
}
