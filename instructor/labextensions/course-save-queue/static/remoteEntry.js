// A JupyterLab extension written by hand (no build step): a module-federation container, as
// JupyterLab's bootstrap loads one, whose "./extension" module holds one plugin.
//
// What it fixes: before writing a notebook, JupyterLab asks the server for the file's hash and
// compares it with the hash of its own last save; if they differ it shows "File Changed: Revert /
// Overwrite". It learns its new hash only after a save has finished (the write, then one more
// request). nbgrader's Validate button saves the notebook itself, so Ctrl+S then Validate starts a
// second save while the first is still writing: the second sees the first one's new file, not the
// hash it knows, and asks. The larger the notebook, the longer the write and the likelier the clash.
// Here every save of a notebook waits for the one before it to end.
(function () {
  "use strict";

  function queueSaves(context) {
    var save = context.save.bind(context);
    var last = Promise.resolve();
    context.save = function () {
      var next = last.then(save, save);
      last = next.then(function () {}, function () {});
      return next;
    };
  }

  var plugin = {
    id: "course-save-queue:plugin",
    description: "Saves of one notebook run one after the other (Ctrl+S, then Validate, never clash).",
    autoStart: true,
    activate: function (app) {
      app.docRegistry.addWidgetExtension("Notebook", {
        createNew: function (panel, context) {
          queueSaves(context);
        }
      });
    }
  };

  var modules = { "./extension": { __esModule: true, default: plugin } };
  var root = (window._JUPYTERLAB = window._JUPYTERLAB || {});
  root["course-save-queue"] = {
    get: function (name) {
      if (!(name in modules)) {
        return Promise.reject(new Error("course-save-queue has no module " + name));
      }
      return Promise.resolve(function () { return modules[name]; });
    },
    init: function () {}
  };
})();
