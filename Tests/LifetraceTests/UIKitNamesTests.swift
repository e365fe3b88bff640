import LifetraceFormat
import LifetraceRecorder
import Testing

import Lifetrace

/// The UIKit names the adapter's inputs carry: one notification and one selector per callback.
struct UIKitNamesTests {
    @Test("every notification announces a lifecycle callback of its kind")
    func everyNotificationAnnouncesALifecycleCallbackOfItsKind() {
        let table = LifecycleAdapter.uiKitNotifications
        #expect(Set(table.map(\.name)).count == table.count)
        for entry in table {
            #expect(entry.isScene == entry.callback.isSceneCallback, "\(entry.name)")
            #expect(entry.name.hasPrefix(entry.isScene ? "UIScene" : "UIApplication"), "\(entry.name)")
        }
        // Every scene callback and every app-delegate transition has its notification.
        let covered = Set(table.map(\.callback))
        for callback in CallbackName.allCases where callback.isSceneCallback || callback.isLifecycleCallback {
            if callback == .willFinishLaunching { continue }  // UIKit posts no notification for it
            #expect(covered.contains(callback), "\(callback)")
        }
    }

    @Test("every lifecycle callback has one delegate selector")
    func everyLifecycleCallbackHasOneSelector() {
        let table = LifecycleAdapter.delegateSelectors
        #expect(Set(table.values).count == table.count)
        for (selector, callback) in table {
            #expect(selector.hasPrefix("scene") == callback.isSceneCallback, "\(selector)")
            #expect(selector.hasSuffix(":"), "\(selector)")
        }
        for callback in CallbackName.allCases {
            #expect(table.values.contains(callback), "\(callback)")
        }
    }
}
