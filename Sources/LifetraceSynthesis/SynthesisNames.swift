import LifetraceFormat
/// The strings a synthesized trace uses, interned once up front so that the symbol table is
/// complete before the first event and generating an event never touches it.
struct SynthesisNames {
    /// The table behind every symbol below.
    private(set) var table = SymbolTable()
    private var callbacks: [Symbol] = []

    /// Scene identifiers: most lifetimes use one scene, some two (an iPad with two windows).
    let scenes: [Symbol]
    /// Launch reasons of foreground launches, with their weights.
    let foregroundReasons: [(weight: Double, value: Symbol)]
    /// Launch reasons of background launches.
    let fetchReason, notificationReason, locationReason, processingReason: Symbol
    /// Short main-thread intervals inside ordinary busy intervals.
    let mainSignposts: [Symbol]
    /// Intervals nested in those.
    let nestedSignposts: [Symbol]
    /// Work that blocks the main thread in a stall.
    let stallSignposts: [Symbol]
    /// Launch work inside didFinishLaunching.
    let launchSignposts: [Symbol]
    /// Worker-thread intervals in the foreground, with their typical shortest duration in ms.
    let workerSignposts: [(name: Symbol, minimumMilliseconds: Double)]
    /// Worker-thread intervals in the background.
    let backgroundSignposts: [Symbol]
    /// App-defined instants at the start of an interaction.
    let interactionMarks: [Symbol]
    /// Background task names.
    let taskNames: [Symbol]
    /// The custom callback a location launch delivers.
    let locationCallback: Symbol
    /// The signpost around the first frame's layout.
    let firstFrameSignpost: Symbol
    /// The mark when the first screen is interactive.
    let firstScreenMark: Symbol

    init() {
        var table = SymbolTable()
        callbacks = CallbackName.allCases.map { table.intern($0.rawValue) }
        func intern(_ strings: [String]) -> [Symbol] { strings.map { table.intern($0) } }
        scenes = intern(["main", "compose"])
        let reasons = intern(["user", "url", "notification", "shortcut"])
        foregroundReasons = [(0.82, reasons[0]), (0.07, reasons[1]), (0.08, reasons[2]), (0.03, reasons[3])]
        notificationReason = reasons[2]
        fetchReason = table.intern("fetch")
        locationReason = table.intern("location")
        processingReason = table.intern("processing")
        mainSignposts = intern([
            "layout", "collectionView.update", "textLayout", "dataSource.apply", "gesture.handle", "animation.tick",
        ])
        nestedSignposts = intern(["cellForItem", "imageView.setImage", "attributedString.build", "constraints.solve"])
        stallSignposts = intern(["db.syncRead", "json.decode.large", "keychain.read", "image.decode.main"])
        launchSignposts = intern(["db.open", "config.load", "services.register", "rootView.build"])
        let workers = intern(["network.request", "db.query", "image.decode", "search.index", "thumbnail.render"])
        workerSignposts = [(workers[0], 40), (workers[1], 0.6), (workers[2], 2), (workers[3], 8), (workers[4], 3)]
        backgroundSignposts = intern(["sync.upload", "sync.download", "db.compact", "notification.process"])
        interactionMarks = intern(["tap", "scroll.begin", "navigation.push", "keyboard.show", "search.begin"])
        taskNames = intern(["saveDraft", "upload.attachments", "sync.finish", "refresh.content"])
        locationCallback = table.intern("locationManager.didUpdateLocations")
        firstFrameSignpost = table.intern("firstFrame.layout")
        firstScreenMark = table.intern("firstScreen.interactive")
        self.table = table
    }

    /// The symbol of a known callback.
    func callback(_ name: CallbackName) -> Symbol {
        callbacks[CallbackName.allCases.firstIndex(of: name)!]
    }
}
