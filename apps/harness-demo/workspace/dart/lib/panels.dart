class Controller {
  void dispose() {}
}

void dispose(Controller c) => c.dispose();

class Panel {
  Controller? controller;
  Controller? other;

  void close() {
    if (controller != null) controller.dispose();
  }

  void closeWrong() {
    if (controller != null) other.dispose();
  }
}

void teardown(Controller a, Controller b) {
  dispose(a);
  dispose(b);
}
