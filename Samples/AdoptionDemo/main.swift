// Adoption, run on Linux: the package's `Lifetrace` product as a dependency, then two lines, the import and
// `Lifetrace.start()` first thing in `main.swift`. On Linux there is no UIKit to observe, so the
// trace holds what the recorder and the app write: the launch, the main thread busy from the
// start, the app's signposts, and the exit. docs/IOS.md shows it run.
import Foundation
import Lifetrace

Lifetrace.start()

let signposter = LifetraceSignposter(subsystem: "com.example.notes", category: LifetraceSignposter.pointsOfInterest)
signposter.withIntervalSignpost("OpenDatabase") { Thread.sleep(forTimeInterval: 0.03) }
signposter.emitEvent("ScreenShown")
