import LifecycleHost

// The sample app's whole entry point, as in an iOS app's main.swift: hand control to the host.
LifecycleHost.main(delegate: SampleAppDelegate.self, sceneDelegate: SampleSceneDelegate.self)
