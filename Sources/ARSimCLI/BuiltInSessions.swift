import ARDisplayer
import ARMeasure
import ARRemoteAssist
import ARSession

extension SessionRegistry {
  /// The source apps ARSim reproduces, in the order their sessions run each tick (after the
  /// plane visualisations), which fixes the order of events and trace fields: measure,
  /// displayers, remote assist.
  public static var builtIn: SessionRegistry {
    SessionRegistry([MeasureKind(), DisplayerKind(), RemoteAssistKind()])
  }
}
