// A club's pages: ask before a delete (buttons with data-confirm); without JavaScript the form posts at once.
document.addEventListener("submit", function (event) {
  var button = event.submitter;
  var question = button && button.getAttribute("data-confirm");
  if (question && !window.confirm(question)) event.preventDefault();
});
