document.body.dataset.after = "ran";
