extension TraceAnalysis {
    /// The stack samples' profile of each stall that has one, by the stall's start (the key the
    /// stall sample pass gives profiles by): what every report puts next to a stall's
    /// callback/signpost blame (docs/REPORTS.md, "Stack samples"). Empty without samples.
    public var stallProfilesByStart: [Int64: StallProfile] {
        var byStart: [Int64: StallProfile] = [:]
        for profile in stallProfiles where byStart[profile.start] == nil { byStart[profile.start] = profile }
        return byStart
    }
}
