'use strict';
// Below 1440 px the admin's navigation sidebar (about 300 px) and a list's filters (240 px) leave its table too
// little room: columns are cut off at 1,024 px. There the sidebar starts closed, unless the volunteer chose
// before (Django keeps the choice in localStorage; the « » button still opens it). Loaded in <head>, before
// Django's nav_sidebar.js reads the choice.
if (window.innerWidth < 1440 && window.localStorage && localStorage.getItem('django.admin.navSidebarIsOpen') === null) {
    localStorage.setItem('django.admin.navSidebarIsOpen', 'false');
}
